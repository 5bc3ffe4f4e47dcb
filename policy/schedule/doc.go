// Package schedule holds the schedule-based policies of Klusáček et al.
// (2008): EG-EDF and EG-EDF + Tabu search (DESIGN.md section 4.4).
package schedule
