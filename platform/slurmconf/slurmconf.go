package slurmconf

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/platform/nodes"
)

// Bounds of a configuration, checked as it is read.
const (
	MaxLineLen      = 1 << 20 // bytes of one line, continuations joined
	MaxLines        = 1 << 20 // lines of all files together
	MaxIncludeDepth = 8       // Include nesting
	MaxPartitions   = 1 << 12
	MaxParams       = 1 << 10 // entries of SchedulerParameters and of each list value
)

// Error is a malformed line: the file, its line (1-based), the key
// ("" when the line has none) and what is wrong.
type Error struct {
	File string
	Line int
	Key  string
	Msg  string
}

func (e *Error) Error() string {
	if e.Key == "" {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s:%d: %s: %s", e.File, e.Line, e.Key, e.Msg)
}

// Warning is a key read but not modelled, or without effect on
// scheduling: file, line, key and why.
type Warning struct {
	File string
	Line int
	Key  string
	Msg  string
}

func (w Warning) String() string { return fmt.Sprintf("%s:%d: %s: %s", w.File, w.Line, w.Key, w.Msg) }

// Param is one entry of a comma list of key[=value] entries
// (SchedulerParameters, SelectTypeParameters, PriorityFlags, ...): Flag
// when it has no value.
type Param struct {
	Key, Value string
	Flag       bool
}

// Partition is one PartitionName line (after the DEFAULT lines before
// it). Times are seconds, +Inf for UNLIMITED; -1 where not given.
type Partition struct {
	Name              string
	Line              int
	File              string
	Nodes             []string // node names, in the platform's order; every node for ALL
	MaxTime           float64
	DefaultTime       float64
	MaxNodes          int // 0: unlimited
	MinNodes          int
	PriorityTier      int
	PriorityJobFactor int
	AllowAccounts     []string // nil: ALL
	AllowGroups       []string
	AllowQos          []string
	// OverSubscribe is NO, YES, FORCE or EXCLUSIVE (with its ":count" kept
	// in OverSubscribeCount; 0 when none).
	OverSubscribe      string
	OverSubscribeCount int
	PreemptMode        string
	Default            bool
	State              string // UP, DOWN, DRAIN or INACTIVE ("UP" when not given)
	TRESBillingWeights []Param
	QOS                string
}

// Config is what a slurm.conf says, typed.
type Config struct {
	// Groups are the node groups, one per NodeName line, and Nodes the
	// platform they make (nodes.New).
	Groups     []nodes.NodeGroup
	Nodes      nodes.Nodes
	Partitions []Partition
	// SchedulerType ("sched/backfill" when not given, Slurm's default) and
	// SchedulerParameters.
	SchedulerType       string
	SchedulerParameters []Param
	SelectType          string
	SelectTypeParams    []Param
	// Priority holds the Priority* keys as given (PriorityType,
	// PriorityWeight*, PriorityMaxAge, PriorityDecayHalfLife, ...), by
	// their slurm.conf name; the numeric ones are checked.
	Priority      map[string]string
	PriorityFlags []Param
	PreemptType   string
	PreemptMode   string
	// AuthInfo as given: its cred_expire=N is how long a requeued job
	// waits (the slurm policy's cred_expire).
	AuthInfo  string
	GresTypes []string
	Warnings  []Warning
}

// ReadFile reads the slurm.conf at path (and the files it includes).
func ReadFile(path string) (*Config, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f, path)
}

// Read reads a slurm.conf from r; name is its file name in messages
// and the folder Include paths are relative to.
func Read(r io.Reader, name string) (*Config, error) {
	p := &parser{cfg: &Config{SchedulerType: "sched/backfill", Priority: map[string]string{}}, nodeDefault: map[string]kv{}, partDefault: map[string]kv{}}
	if err := p.file(r, name, 0); err != nil {
		return nil, err
	}
	if err := p.finish(); err != nil {
		return nil, err
	}
	return p.cfg, nil
}

// kv is one key=value of a line, with its line for messages.
type kv struct {
	key, value string // key as written
	file       string
	line       int
}

type parser struct {
	cfg         *Config
	lines       int
	nodeDefault map[string]kv // lower-case key -> value
	partDefault map[string]kv
	nodeLines   []kv // the NodeName entry of each group, for messages
	partLines   [][]kv
}

func (p *parser) errf(k kv, format string, args ...any) error {
	return &Error{File: k.file, Line: k.line, Key: k.key, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) warn(k kv, msg string) {
	p.cfg.Warnings = append(p.cfg.Warnings, Warning{File: k.file, Line: k.line, Key: k.key, Msg: msg})
}

// file reads one file's lines.
func (p *parser) file(r io.Reader, name string, depth int) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), MaxLineLen)
	var cont bytes.Buffer
	n, start := 0, 0
	for sc.Scan() {
		n++
		if p.lines++; p.lines > MaxLines {
			return &Error{File: name, Line: n, Msg: fmt.Sprintf("more than %d lines (MaxLines)", MaxLines)}
		}
		line := sc.Bytes()
		if cont.Len() == 0 {
			start = n
		}
		if len(line) > 0 && line[len(line)-1] == '\\' {
			if cont.Len()+len(line) > MaxLineLen {
				return &Error{File: name, Line: start, Msg: fmt.Sprintf("a line continued past %d bytes (MaxLineLen)", MaxLineLen)}
			}
			cont.Write(line[:len(line)-1])
			continue
		}
		cont.Write(line)
		text := cont.String()
		cont.Reset()
		if err := p.line(text, name, start, depth); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		if err == bufio.ErrTooLong {
			return &Error{File: name, Line: n + 1, Msg: fmt.Sprintf("a line longer than %d bytes (MaxLineLen)", MaxLineLen)}
		}
		return fmt.Errorf("%s: %v", name, err)
	}
	return nil
}

// fields splits a line into key=value pairs (comments removed, quotes
// kept together).
func fields(text, file string, line int) ([]kv, error) {
	var out []kv
	var b strings.Builder
	inQuote := false
	flush := func() error {
		if b.Len() == 0 {
			return nil
		}
		w := b.String()
		b.Reset()
		k, v, ok := strings.Cut(w, "=")
		if !ok {
			return &Error{File: file, Line: line, Key: w, Msg: "not a Key=Value pair"}
		}
		if k == "" {
			return &Error{File: file, Line: line, Msg: fmt.Sprintf("%q: a value without a key", w)}
		}
		out = append(out, kv{key: k, value: strings.ReplaceAll(v, "\"", ""), file: file, line: line})
		return nil
	}
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '"':
			inQuote = !inQuote
			b.WriteByte(c)
		case c == '#' && !inQuote:
			i = len(text)
		case (c == ' ' || c == '\t' || c == '\r') && !inQuote:
			if err := flush(); err != nil {
				return nil, err
			}
		default:
			b.WriteByte(c)
		}
	}
	if inQuote {
		return nil, &Error{File: file, Line: line, Msg: "a double quote is not closed"}
	}
	if err := flush(); err != nil {
		return nil, err
	}
	return out, nil
}

func (p *parser) line(text, file string, n, depth int) error {
	trim := strings.TrimSpace(text)
	if trim == "" || trim[0] == '#' {
		return nil
	}
	if w, rest, ok := strings.Cut(trim, " "); ok && strings.EqualFold(w, "include") {
		return p.include(strings.TrimSpace(rest), file, n, depth)
	}
	kvs, err := fields(text, file, n)
	if err != nil || len(kvs) == 0 {
		return err
	}
	switch strings.ToLower(kvs[0].key) {
	case "nodename":
		return p.nodeLine(kvs)
	case "partitionname":
		return p.partLine(kvs)
	case "nodeset", "frontendname", "downnodes":
		p.warn(kvs[0], "not modelled (the line is skipped)")
		return nil
	}
	for _, k := range kvs {
		if err := p.global(k); err != nil {
			return err
		}
	}
	return nil
}

func (p *parser) include(path, file string, n, depth int) error {
	k := kv{key: "Include", file: file, line: n}
	if depth+1 > MaxIncludeDepth {
		return p.errf(k, "includes nested deeper than %d (MaxIncludeDepth)", MaxIncludeDepth)
	}
	if path == "" {
		return p.errf(k, "no file named")
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(filepath.Dir(file), path)
	}
	f, err := os.Open(path)
	if err != nil {
		return p.errf(k, "%v", err)
	}
	defer f.Close()
	return p.file(f, path, depth+1)
}

// The global keys the package reads, and those without effect on
// scheduling (lower case).
var (
	priorityNumeric = []string{"priorityweightage", "priorityweightfairshare", "priorityweightjobsize", "priorityweightpartition", "priorityweightqos", "priorityweightassoc"}
	priorityText    = []string{"prioritytype", "prioritymaxage", "prioritydecayhalflife", "prioritycalcperiod", "priorityfavorsmall", "priorityusageresetperiod", "priorityweighttres", "prioritysitefactorplugin"}
	noEffect        = []string{
		"clustername", "slurmctldhost", "controlmachine", "controladdr", "backupcontroller", "backupaddr",
		"slurmuser", "slurmduser", "slurmctldport", "slurmdport", "authtype", "authaltypes", "credtype", "cryptotype",
		"statesavelocation", "slurmdspooldir", "slurmctldpidfile", "slurmdpidfile", "slurmctldlogfile", "slurmdlogfile",
		"slurmctlddebug", "slurmddebug", "slurmctldsyslogdebug", "slurmdsyslogdebug", "debugflags", "logtimeformat",
		"slurmschedlogfile", "slurmschedloglevel", "proctracktype", "taskplugin", "taskpluginparam", "mpidefault", "mpiparams",
		"switchtype", "jobacctgathertype", "jobacctgatherfrequency", "jobacctgatherparams", "accountingstoragetype", "accountingstoragehost",
		"accountingstorageport", "accountingstorageuser", "accountingstoragepass", "accountingstoragetres", "accountingstorageexternalhost",
		"jobcomptype", "jobcomploc", "jobcomphost", "jobcompport", "jobcompuser", "jobcomppass",
		"slurmctldtimeout", "slurmdtimeout", "messagetimeout", "tcptimeout", "batchstarttimeout", "epilogmsgtime", "getenvtimeout",
		"plugindir", "plugstackconfig", "prolog", "epilog", "prologslurmctld", "epilogslurmctld", "prologflags", "taskprolog", "taskepilog",
		"srunprolog", "srunepilog", "tmpfs", "launchparameters", "launchtype", "mailprog", "mailtype", "mailuser", "mailtime", "healthcheckprogram",
		"healthcheckinterval", "healthchecknodestate", "communicationparameters", "slurmctldparameters", "slurmdparameters",
		"returntoservice", "unkillablesteptimeout", "killonbadexit", "propagateresourcelimits", "propagateresourcelimitsexcept",
		"propagateprioprocess", "jobcredentialprivatekey", "jobcredentialpubliccertificate", "acctgathernodefreq", "acctgatherprofiletype",
		"acctgatherinterconnecttype", "acctgatherfilesystemtype", "ext_sensorstype", "routeplugin", "treewidth", "cliFilterplugins",
		"jobsubmitplugins", "reboottprogram", "rebootprogram", "resumeprogram", "suspendprogram", "resvoverrun", "x11parameters",
		"maxstepcount", "maxtaskspernode", "vsizefactor", "killwait", "waittime", "inactivelimit", "minjobage", "firstjobid", "maxjobid",
		"hashplugin", "certmgrtype", "tlstype", "jobcontainertype", "namespacetype", "enablecontrolsinyaml", "usepam", "cgroupplugin",
	}
)

// global reads one key of a line that is neither a NodeName nor a
// PartitionName line.
func (p *parser) global(k kv) error {
	lk := strings.ToLower(k.key)
	c := p.cfg
	switch {
	case lk == "schedulertype":
		c.SchedulerType = k.value
		if k.value != "sched/backfill" && k.value != "sched/builtin" {
			p.warn(k, fmt.Sprintf("%s is not modelled (sched/backfill and sched/builtin are)", k.value))
		}
	case lk == "schedulerparameters":
		ps, err := p.params(k)
		if err != nil {
			return err
		}
		if err := checkSchedParams(ps); err != nil {
			return p.errf(k, "%v", err)
		}
		c.SchedulerParameters = ps
	case lk == "selecttype":
		c.SelectType = k.value
	case lk == "selecttypeparameters":
		ps, err := p.params(k)
		if err != nil {
			return err
		}
		c.SelectTypeParams = ps
	case lk == "priorityflags":
		ps, err := p.params(k)
		if err != nil {
			return err
		}
		c.PriorityFlags = ps
	case slices.Contains(priorityNumeric, lk):
		if v, err := strconv.ParseUint(k.value, 10, 32); err != nil {
			return p.errf(k, "%q is not a whole number 0..%d", k.value, uint32(math.MaxUint32))
		} else {
			c.Priority[k.key] = strconv.FormatUint(v, 10)
		}
	case slices.Contains(priorityText, lk):
		if lk == "prioritymaxage" || lk == "prioritydecayhalflife" || lk == "prioritycalcperiod" {
			if _, err := Duration(k.value); err != nil {
				return p.errf(k, "%v", err)
			}
		}
		c.Priority[k.key] = k.value
	case lk == "preempttype":
		c.PreemptType = k.value
	case lk == "preemptmode":
		c.PreemptMode = strings.ToUpper(k.value)
	case lk == "authinfo":
		c.AuthInfo = k.value
		if !strings.Contains(strings.ToLower(k.value), "cred_expire=") {
			p.warn(k, "no effect on scheduling (ignored)")
		}
	case lk == "grestypes":
		c.GresTypes = splitList(k.value)
	case slices.Contains(noEffect, lk):
		p.warn(k, "no effect on scheduling (ignored)")
	default:
		p.warn(k, "not modelled")
	}
	return nil
}

// schedNumeric are SchedulerParameters whose values are whole numbers.
var schedNumeric = []string{"bf_window", "bf_interval", "bf_max_job_test", "bf_max_job_user", "bf_max_job_part", "bf_max_job_start",
	"bf_resolution", "bf_min_age_reserve", "bf_min_prio_reserve", "bf_max_job_assoc", "bf_max_time", "bf_yield_interval", "default_queue_depth",
	"max_rpc_cnt", "sched_interval", "sched_min_interval", "bf_max_job_array_resv", "bf_max_job_user_part", "partition_job_depth"}

func checkSchedParams(ps []Param) error {
	for _, q := range ps {
		if slices.Contains(schedNumeric, strings.ToLower(q.Key)) {
			if q.Flag {
				return fmt.Errorf("%s needs a value", q.Key)
			}
			bits := 31
			if strings.EqualFold(q.Key, "bf_min_prio_reserve") {
				bits = 32 // a priority: Slurm's is 32 bits
			}
			if _, err := strconv.ParseUint(q.Value, 10, bits); err != nil {
				return fmt.Errorf("%s=%s: not a whole number", q.Key, q.Value)
			}
		}
	}
	return nil
}

// params splits a comma list of key[=value] entries.
func (p *parser) params(k kv) ([]Param, error) {
	var out []Param
	for _, e := range strings.Split(k.value, ",") {
		e = strings.TrimSpace(e)
		if e == "" {
			continue
		}
		if len(out) == MaxParams {
			return nil, p.errf(k, "more than %d entries (MaxParams)", MaxParams)
		}
		key, v, ok := strings.Cut(e, "=")
		out = append(out, Param{Key: key, Value: v, Flag: !ok})
	}
	return out, nil
}

func splitList(s string) []string {
	var out []string
	for _, e := range strings.Split(s, ",") {
		if e = strings.TrimSpace(e); e != "" {
			out = append(out, e)
		}
	}
	return out
}

// Duration reads a Slurm time: minutes, minutes:seconds,
// hours:minutes:seconds, days-hours, days-hours:minutes,
// days-hours:minutes:seconds, or UNLIMITED/INFINITE (+Inf); seconds.
// (PriorityDecayHalfLife and the like take the same forms.)
func Duration(s string) (float64, error) {
	switch strings.ToUpper(s) {
	case "UNLIMITED", "INFINITE":
		return math.Inf(1), nil
	}
	bad := fmt.Errorf("%q is not a Slurm time (minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS or UNLIMITED)", s)
	num := func(t string) (float64, bool) {
		v, err := strconv.ParseUint(t, 10, 31)
		return float64(v), err == nil
	}
	days := 0.0
	rest := s
	if d, r, ok := strings.Cut(s, "-"); ok {
		v, ok := num(d)
		if !ok || r == "" {
			return 0, bad
		}
		days, rest = v, r
		parts := strings.Split(rest, ":")
		if len(parts) > 3 {
			return 0, bad
		}
		mult := []float64{3600, 60, 1}
		total := days * 86400
		for i, t := range parts {
			v, ok := num(t)
			if !ok {
				return 0, bad
			}
			total += v * mult[i]
		}
		return total, nil
	}
	parts := strings.Split(rest, ":")
	var mult []float64
	switch len(parts) {
	case 1:
		mult = []float64{60}
	case 2:
		mult = []float64{60, 1}
	case 3:
		mult = []float64{3600, 60, 1}
	default:
		return 0, bad
	}
	total := 0.0
	for i, t := range parts {
		v, ok := num(t)
		if !ok {
			return 0, bad
		}
		total += v * mult[i]
	}
	return total, nil
}
