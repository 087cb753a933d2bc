package treefix

// Number is a machine number that + works on.
type Number interface {
	~int32 | ~int64 | ~uint32 | ~uint64 | ~float32 | ~float64
}

// Integer is a machine integer (for Xor).
type Integer interface {
	~int32 | ~int64 | ~uint32 | ~uint64
}

// Group is an abelian group: Op is associative and commutative with
// Identity, and Op(a, Inverse(a)) = Identity. Sequential treefix needs only
// Op and Identity; the vectorial algorithm needs Inverse and commutativity.
type Group[T any] interface {
	Identity() T
	Op(a, b T) T
	Inverse(a T) T
}

// Add is + on machine numbers (a group on integers, modulo overflow; on
// floats only approximately associative).
type Add[T Number] struct{}

// Identity returns 0.
func (Add[T]) Identity() T { return 0 }

// Op returns a + b.
func (Add[T]) Op(a, b T) T { return a + b }

// Inverse returns -a.
func (Add[T]) Inverse(a T) T { return -a }

// Xor is bitwise exclusive or, a group in which every element is its own
// inverse.
type Xor[T Integer] struct{}

// Identity returns 0.
func (Xor[T]) Identity() T { return 0 }

// Op returns a ^ b.
func (Xor[T]) Op(a, b T) T { return a ^ b }

// Inverse returns a.
func (Xor[T]) Inverse(a T) T { return a }
