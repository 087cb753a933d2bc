package lap

import "github.com/semibench/semibench/problems/lap"

// Impls returns the CPU implementations in display order. cpu/jv is the
// problem's reference solver, lap.SolveJV.
func Impls() []lap.Impl {
	return []lap.Impl{
		{Name: "cpu/paper", Solve: SolvePaper, SolveFloat: SolvePaperFloat},
		{Name: "cpu/hungarian-n3", Solve: SolveN3, SolveFloat: SolveN3Float},
		lap.JV,
		{Name: "cpu/auction", Solve: SolveAuction},
	}
}
