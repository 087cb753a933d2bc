package lap_test

import (
	"fmt"
	"strings"

	"github.com/semibench/semibench/problems/lap"
)

func ExampleReadCosts_error() {
	_, err := lap.ReadCosts(strings.NewReader("1,2,3\n4,x,6\n"), "costs.csv")
	fmt.Println(err)
	_, err = lap.ReadCosts(strings.NewReader("1,2\n3,4\n5,6\n"), "costs.csv")
	fmt.Println(err)
	// Output:
	// costs.csv:2: not a number: "x" in column 2
	// costs.csv:3: cost matrix shape: row 3 of a matrix with 2 columns: more rows than columns (every row must be assigned; transpose the matrix)
}
