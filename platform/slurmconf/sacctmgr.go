package slurmconf

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// MaxAssocs bounds the accounts and users of a sacctmgr dump, and
// MaxQOS the QOS of a QOS table.
const (
	MaxAssocs = 1 << 20
	MaxQOS    = 1 << 12
)

// Account is an account of a sacctmgr dump: its parent ("" for root),
// its fair-share value (Slurm's raw shares; 1 when not given) and every
// other option as given (MaxJobs, GrpTRES, QOS, ...).
type Account struct {
	Name, Parent string
	Fairshare    int64
	Options      map[string]string
	Line         int
}

// User is a user's association with an account.
type User struct {
	Name, Account  string
	DefaultAccount string
	Fairshare      int64
	QOS            []string
	Options        map[string]string
	Line           int
}

// Assocs are the associations of a `sacctmgr dump` file: the cluster's
// options, the accounts (root first) and the users' associations, in
// the file's order.
type Assocs struct {
	Cluster  string
	Options  map[string]string
	Accounts []Account
	Users    []User
}

// ReadDump reads the output of `sacctmgr dump CLUSTER`: lines
// "Cluster - 'name':opt=v:...", "Parent - 'account'", "Account -
// 'name':...", "User - 'name':..."; '#' starts a comment. An Account or
// User belongs to the last Parent line before it (root at first); a
// Parent must be an account defined before (or root).
func ReadDump(r io.Reader, name string) (*Assocs, error) {
	a := &Assocs{Accounts: []Account{{Name: "root", Fairshare: 1, Options: map[string]string{}}}}
	known := map[string]bool{"root": true}
	parent := "root"
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), MaxLineLen)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		kind, rest, ok := strings.Cut(line, " - ")
		if !ok {
			return nil, &Error{File: name, Line: n, Msg: "want \"Cluster|Parent|Account|User - 'name'[:option=value...]\""}
		}
		kind = strings.TrimSpace(kind)
		who, opts, err := dumpFields(rest)
		if err != nil {
			return nil, &Error{File: name, Line: n, Key: kind, Msg: err.Error()}
		}
		if len(a.Accounts)+len(a.Users) > MaxAssocs {
			return nil, &Error{File: name, Line: n, Msg: fmt.Sprintf("more than %d associations (MaxAssocs)", MaxAssocs)}
		}
		share := int64(1)
		if v, ok := lookup(opts, "fairshare"); ok {
			if strings.EqualFold(v, "parent") {
				share = -1 // Slurm's Fairshare=parent: the parent's shares
			} else if share, err = strconv.ParseInt(v, 10, 64); err != nil || share < 0 || share > math.MaxUint32 {
				return nil, &Error{File: name, Line: n, Key: "Fairshare", Msg: fmt.Sprintf("%q: want a whole number 0..%d or parent", v, uint32(math.MaxUint32))}
			}
		}
		switch strings.ToLower(kind) {
		case "cluster":
			a.Cluster, a.Options = who, opts
		case "parent":
			if !known[who] {
				return nil, &Error{File: name, Line: n, Key: "Parent", Msg: fmt.Sprintf("account %s is not defined before it", who)}
			}
			parent = who
		case "account":
			if known[who] {
				return nil, &Error{File: name, Line: n, Key: "Account", Msg: fmt.Sprintf("account %s is defined twice", who)}
			}
			known[who] = true
			a.Accounts = append(a.Accounts, Account{Name: who, Parent: parent, Fairshare: share, Options: opts, Line: n})
		case "user":
			u := User{Name: who, Account: parent, Fairshare: share, Options: opts, Line: n}
			u.DefaultAccount, _ = lookup(opts, "defaultaccount")
			if q, ok := lookup(opts, "qos"); ok {
				u.QOS = splitList(q)
			}
			a.Users = append(a.Users, u)
		default:
			return nil, &Error{File: name, Line: n, Key: kind, Msg: "not Cluster, Parent, Account or User"}
		}
	}
	if err := sc.Err(); err != nil {
		if err == bufio.ErrTooLong {
			return nil, &Error{File: name, Line: n + 1, Msg: fmt.Sprintf("a line longer than %d bytes (MaxLineLen)", MaxLineLen)}
		}
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return a, nil
}

func lookup(m map[string]string, key string) (string, bool) {
	for k, v := range m {
		if strings.EqualFold(k, key) {
			return v, true
		}
	}
	return "", false
}

// dumpFields splits "'name':k=v:k='v with : inside'" into the name and
// the options.
func dumpFields(s string) (string, map[string]string, error) {
	var parts []string
	var b strings.Builder
	inQuote := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\'':
			inQuote = !inQuote
		case c == ':' && !inQuote:
			parts = append(parts, b.String())
			b.Reset()
		default:
			b.WriteByte(c)
		}
	}
	if inQuote {
		return "", nil, fmt.Errorf("a quote is not closed")
	}
	parts = append(parts, b.String())
	who := strings.TrimSpace(parts[0])
	if who == "" {
		return "", nil, fmt.Errorf("no name")
	}
	opts := map[string]string{}
	for _, p := range parts[1:] {
		k, v, ok := strings.Cut(p, "=")
		if !ok || k == "" {
			return "", nil, fmt.Errorf("%q: want option=value", p)
		}
		opts[k] = v
	}
	return who, opts, nil
}

// QOS is one row of a QOS table.
type QOS struct {
	Name           string
	Priority       int64
	MaxJobsPerUser int64 // -1: no limit
	MaxSubmitJobs  int64 // MaxSubmitJobsPerUser; -1: no limit
	MaxWall        float64
	MaxTRESPerUser []Param
	GrpTRES        []Param
	Preempt        []string
	PreemptMode    string
	Line           int
}

// ReadQOS reads `sacctmgr show qos --parsable2 format=...`: a header
// line of column names separated by '|' and one QOS a line; the columns
// read are Name (required), Priority, MaxJobsPU (or MaxJobsPerUser),
// MaxSubmitPU (or MaxSubmitJobsPerUser), MaxWall, MaxTRESPU (or
// MaxTRESPerUser), GrpTRES, Preempt, PreemptMode; others are ignored.
func ReadQOS(r io.Reader, name string) ([]QOS, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), MaxLineLen)
	if !sc.Scan() {
		return nil, &Error{File: name, Line: 1, Msg: "empty: want sacctmgr show qos --parsable2 output with its header line"}
	}
	col := map[string]int{}
	for i, h := range strings.Split(sc.Text(), "|") {
		col[strings.ToLower(strings.TrimSpace(h))] = i
	}
	if _, ok := col["name"]; !ok {
		return nil, &Error{File: name, Line: 1, Key: "Name", Msg: "no Name column in the header line"}
	}
	var out []QOS
	n := 1
	for sc.Scan() {
		n++
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		if len(out) == MaxQOS {
			return nil, &Error{File: name, Line: n, Msg: fmt.Sprintf("more than %d QOS (MaxQOS)", MaxQOS)}
		}
		f := strings.Split(sc.Text(), "|")
		get := func(keys ...string) (string, string) {
			for _, k := range keys {
				if i, ok := col[strings.ToLower(k)]; ok && i < len(f) {
					return strings.TrimSpace(f[i]), k
				}
			}
			return "", keys[0]
		}
		q := QOS{MaxJobsPerUser: -1, MaxSubmitJobs: -1, MaxWall: math.Inf(1), Line: n}
		q.Name, _ = get("Name")
		if q.Name == "" {
			return nil, &Error{File: name, Line: n, Key: "Name", Msg: "empty"}
		}
		whole := func(dst *int64, keys ...string) error {
			v, k := get(keys...)
			if v == "" {
				return nil
			}
			x, err := strconv.ParseInt(v, 10, 64)
			if err != nil || x < 0 {
				return &Error{File: name, Line: n, Key: k, Msg: fmt.Sprintf("%q: want a whole number >= 0", v)}
			}
			*dst = x
			return nil
		}
		if err := whole(&q.Priority, "Priority"); err != nil {
			return nil, err
		}
		if err := whole(&q.MaxJobsPerUser, "MaxJobsPU", "MaxJobsPerUser"); err != nil {
			return nil, err
		}
		if err := whole(&q.MaxSubmitJobs, "MaxSubmitPU", "MaxSubmitJobsPerUser"); err != nil {
			return nil, err
		}
		if v, k := get("MaxWall"); v != "" {
			d, err := sacctDuration(v)
			if err != nil {
				return nil, &Error{File: name, Line: n, Key: k, Msg: err.Error()}
			}
			q.MaxWall = d
		}
		tres := func(dst *[]Param, keys ...string) {
			if v, _ := get(keys...); v != "" {
				for _, e := range strings.Split(v, ",") {
					k, val, ok := strings.Cut(e, "=")
					*dst = append(*dst, Param{Key: k, Value: val, Flag: !ok})
				}
			}
		}
		tres(&q.MaxTRESPerUser, "MaxTRESPU", "MaxTRESPerUser")
		tres(&q.GrpTRES, "GrpTRES")
		if v, _ := get("Preempt"); v != "" {
			q.Preempt = splitList(v)
		}
		q.PreemptMode, _ = get("PreemptMode")
		out = append(out, q)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return out, nil
}

// sacctDuration reads sacctmgr's time forms: [D-]HH:MM:SS, MM:SS, or
// minutes, as Duration does (sacctmgr writes "1-00:00:00", "02:00:00").
func sacctDuration(s string) (float64, error) { return Duration(s) }
