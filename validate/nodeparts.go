package validate

import "fmt"

// checkAllowed reports every node a job holds outside its partition
// (NodeRec.Allowed; nil: any node).
func checkAllowed(caps []NodeCap, r *NodeRec) []string {
	if r.Allowed == nil {
		return nil
	}
	in := make(map[int]bool, len(r.Allowed))
	for _, n := range r.Allowed {
		in[n] = true
	}
	var probs []string
	for _, u := range r.Uses {
		if !in[u.Node] {
			name := fmt.Sprint(u.Node)
			if u.Node >= 0 && u.Node < len(caps) {
				name = caps[u.Node].Name
			}
			probs = append(probs, fmt.Sprintf("job %d: holds node %s, not a node of its partition", r.ID, name))
		}
	}
	return probs
}
