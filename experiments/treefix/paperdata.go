package treefix

import (
	"embed"

	"github.com/semibench/semibench/experiments/paperdata"
)

// paperData is the paper's own data (paper/): its claims catalogue
// (claims.json) and its tables transcribed as result files (*.jsonl).
//
//go:embed paper
var paperData embed.FS

func init() { paperdata.Register(Paper.File, "experiments/treefix", paperData) }
