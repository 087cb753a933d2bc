package lap_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/semibench/semibench/impls/cpu/lap"
)

// The whole of `semibench solve lap --in FILE [--impl NAME] [--maximize]`:
// read, solve (the answer is certified before it is returned), print JSON.
func ExampleSolve() {
	in := "4,1,3\n2,0,5\n3,2,2\n" // ReadCostsFile(path) for a file
	costs, err := lap.ReadCosts(strings.NewReader(in), "costs.csv")
	if err != nil {
		fmt.Println(err) // e.g. "costs.csv:2: not a number: "x" in column 3"
		return
	}
	sol, err := lap.Solve(context.Background(), costs, "cpu/jv", false)
	if err != nil {
		fmt.Println(err)
		return
	}
	sol.MS = 0 // the time varies; zeroed for the example's output
	json.NewEncoder(os.Stdout).Encode(sol)
	// Output: {"cost":5,"assignment":[1,0,2],"impl":"cpu/jv","ms":0}
}

func ExampleReadCosts_error() {
	_, err := lap.ReadCosts(strings.NewReader("1,2,3\n4,x,6\n"), "costs.csv")
	fmt.Println(err)
	_, err = lap.ReadCosts(strings.NewReader("1,2\n3,4\n5,6\n"), "costs.csv")
	fmt.Println(err)
	// Output:
	// costs.csv:2: not a number: "x" in column 2
	// costs.csv:3: cost matrix shape: row 3 of a matrix with 2 columns: more rows than columns (every row must be assigned; transpose the matrix)
}
