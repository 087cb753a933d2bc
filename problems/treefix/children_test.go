package treefix

import (
	"errors"
	"testing"
)

func TestValidateErrors(t *testing.T) {
	for _, tc := range []struct {
		parent []int32
		want   error
		vertex int
	}{
		{[]int32{-1, -1}, ErrTwoRoots, 1},
		{[]int32{-1, 5}, ErrParent, 1},
		{[]int32{-1, -3}, ErrParent, 1},
		{[]int32{-1, 2, 1}, ErrCycle, 1},
		{[]int32{-1, 1}, ErrCycle, 1},
		{[]int32{1, 0}, ErrNoRoot, -1},
		{nil, ErrNoRoot, -1},
	} {
		err := Validate(tc.parent)
		var se *ShapeError
		if !errors.Is(err, tc.want) || !errors.As(err, &se) || se.Vertex != tc.vertex {
			t.Errorf("Validate(%v) = %v, want %v at vertex %d", tc.parent, err, tc.want, tc.vertex)
		}
	}
	if err := Validate([]int32{1, -1, 1}); err != nil {
		t.Errorf("valid tree: %v", err)
	}
}
