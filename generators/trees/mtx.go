package trees

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/semibench/semibench/problems/treefix"
)

// ErrMatrixMarket is wrapped by every error SpanningTree returns for a
// malformed file.
var ErrMatrixMarket = errors.New("bad Matrix Market file")

// SpanningTree reads the pattern of a square Matrix Market coordinate matrix
// (any field: real, integer, pattern, complex; general, symmetric,
// skew-symmetric or hermitian symmetry; values are ignored) as an
// undirected graph, entry (i, j) joining vertices i and j, and returns the
// breadth-first spanning tree from vertex 0 (neighbours visited in
// increasing id), as the paper's Table I trees. Vertices that vertex 0 does
// not reach are left out, and the tree's vertices keep the relative order of
// their ids, so the numbering is the file's. name labels errors.
//
// The package mtx reads general matrices with values; this reader needs only
// the pattern and must accept the symmetric storage SuiteSparse uses, so it
// parses the entries itself.
func SpanningTree(r io.Reader, name string) (*Tree, error) {
	br := bufio.NewReaderSize(r, 1<<20)
	line := 0
	next := func() (string, error) {
		for {
			s, err := br.ReadString('\n')
			if s == "" && err != nil {
				return "", err
			}
			line++
			s = strings.TrimSpace(s)
			if s == "" || (line > 1 && s[0] == '%') {
				if err != nil {
					return "", err
				}
				continue
			}
			return s, nil
		}
	}
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%s:%d: %w: %s", name, line, ErrMatrixMarket, fmt.Sprintf(format, a...))
	}
	head, err := next()
	if err != nil {
		return nil, bad("no header: %v", err)
	}
	f := strings.Fields(strings.ToLower(head))
	if len(f) != 5 || f[0] != "%%matrixmarket" || f[1] != "matrix" {
		return nil, bad("header %q is not '%%%%MatrixMarket matrix coordinate FIELD SYMMETRY'", head)
	}
	if f[2] != "coordinate" {
		return nil, bad("format %q: only coordinate matrices describe graphs", f[2])
	}
	size, err := next()
	if err != nil {
		return nil, bad("no size line: %v", err)
	}
	sf := strings.Fields(size)
	if len(sf) != 3 {
		return nil, bad("size line %q: want 'rows cols entries'", size)
	}
	rows, e1 := strconv.Atoi(sf[0])
	cols, e2 := strconv.Atoi(sf[1])
	nnz, e3 := strconv.Atoi(sf[2])
	if e1 != nil || e2 != nil || e3 != nil || rows < 1 || cols < 1 || nnz < 0 {
		return nil, bad("size line %q: want positive integers", size)
	}
	if rows != cols {
		return nil, bad("matrix is %d x %d; a graph needs a square matrix", rows, cols)
	}
	if rows > treefix.MaxN {
		return nil, bad("%d vertices exceed %d", rows, treefix.MaxN)
	}
	n := rows
	src := make([]int32, 0, min(nnz, 1<<20))
	dst := make([]int32, 0, min(nnz, 1<<20))
	for k := 0; k < nnz; k++ {
		s, err := next()
		if err != nil {
			return nil, bad("entry %d of %d missing: %v", k+1, nnz, err)
		}
		i, rest, ok1 := cutInt(s)
		j, _, ok2 := cutInt(rest)
		if !ok1 || !ok2 {
			return nil, bad("entry %q: want 'row col [value]'", s)
		}
		if i < 1 || i > n || j < 1 || j > n {
			return nil, bad("entry (%d, %d) outside 1..%d", i, j, n)
		}
		if i != j {
			src = append(src, int32(i-1))
			dst = append(dst, int32(j-1))
		}
	}
	// Every array below is n long: refuse a header whose vertex count the
	// entries cannot connect (a spanning tree needs n-1 edges), so a short
	// file cannot ask for gigabytes.
	if n > 2*len(src)+(1<<20) {
		return nil, bad("%d vertices but only %d off-diagonal entries: far too sparse for a spanning tree", n, len(src))
	}
	return spanningFromEdges(n, src, dst), nil
}

// cutInt parses a leading decimal integer of s and returns the rest.
func cutInt(s string) (int, string, bool) {
	s = strings.TrimLeft(s, " \t")
	end := strings.IndexAny(s, " \t")
	if end < 0 {
		end = len(s)
	}
	v, err := strconv.Atoi(s[:end])
	return v, s[end:], err == nil
}

// spanningFromEdges builds the undirected adjacency in CSR and returns the
// breadth-first tree from vertex 0 over the reached vertices.
func spanningFromEdges(n int, src, dst []int32) *Tree {
	deg := make([]int64, n+1)
	for k := range src {
		deg[src[k]+1]++
		deg[dst[k]+1]++
	}
	for v := 0; v < n; v++ {
		deg[v+1] += deg[v]
	}
	adj := make([]int32, deg[n])
	fill := make([]int64, n)
	copy(fill, deg[:n])
	for k := range src {
		a, b := src[k], dst[k]
		adj[fill[a]] = b
		fill[a]++
		adj[fill[b]] = a
		fill[b]++
	}
	parent := make([]int32, n)
	for v := range parent {
		parent[v] = -2 // unreached
	}
	parent[0] = -1
	queue := []int32{0}
	for h := 0; h < len(queue); h++ {
		v := queue[h]
		nb := adj[deg[v]:deg[v+1]]
		// visit neighbours in increasing id for a file-independent tree
		sortInt32(nb)
		for _, u := range nb {
			if parent[u] == -2 {
				parent[u] = v
				queue = append(queue, u)
			}
		}
	}
	id := make([]int32, n)
	m := int32(0)
	for v := range parent {
		if parent[v] != -2 {
			id[v] = m
			m++
		}
	}
	t := &Tree{Parent: make([]int32, 0, m), Weight: make([]float64, m)}
	for _, p := range parent {
		switch {
		case p == -2:
		case p == -1:
			t.Parent = append(t.Parent, -1)
		default:
			t.Parent = append(t.Parent, id[p])
		}
	}
	return t
}

func sortInt32(a []int32) { slices.Sort(a) }

// ReadSpanningTree opens a .mtx (or .mtx.gz) file and returns SpanningTree
// of it.
func ReadSpanningTree(path string) (*Tree, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("spanning tree: %w", err)
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		gz, err := gzip.NewReader(f)
		if err != nil {
			return nil, fmt.Errorf("spanning tree of %s: %w", path, err)
		}
		defer gz.Close()
		r = gz
	}
	return SpanningTree(r, filepath.Base(path))
}

// FindMatrix looks in dir for the SuiteSparse matrix name as name.mtx,
// name.mtx.gz, name/name.mtx or name/name.mtx.gz (the layout of the
// collection's tar files); "" when absent.
func FindMatrix(dir, name string) string {
	for _, p := range []string{name + ".mtx", name + ".mtx.gz", filepath.Join(name, name+".mtx"), filepath.Join(name, name+".mtx.gz")} {
		full := filepath.Join(dir, p)
		if st, err := os.Stat(full); err == nil && !st.IsDir() {
			return full
		}
	}
	return ""
}
