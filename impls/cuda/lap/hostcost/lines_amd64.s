//go:build !purego

#include "textflag.h"

// fusedPart's whole lines in AVX-512 (lines_amd64.go says what each
// function does); the macros below are shared by the int16 and int32
// versions.

// LINES checks a line of 32 int64 costs at SI against [lo, lo+span]
// (Z30 = lo, Z31 = span broadcast), leaves the costs in Z0-Z3, jumps to
// done when one is outside, and folds them into the least (Z28) and the
// largest (Z29).
#define LINES \
	VMOVDQU64 0(SI), Z0 \
	VMOVDQU64 64(SI), Z1 \
	VMOVDQU64 128(SI), Z2 \
	VMOVDQU64 192(SI), Z3 \
	VPSUBQ Z30, Z0, Z4 \
	VPSUBQ Z30, Z1, Z5 \
	VPSUBQ Z30, Z2, Z6 \
	VPSUBQ Z30, Z3, Z7 \
	VPCMPUQ $6, Z31, Z4, K1 \
	VPCMPUQ $6, Z31, Z5, K2 \
	VPCMPUQ $6, Z31, Z6, K3 \
	VPCMPUQ $6, Z31, Z7, K4 \
	KORW K2, K1, K1 \
	KORW K4, K3, K3 \
	KORTESTW K3, K1 \
	JNE done \
	VPMINSQ Z1, Z0, Z4 \
	VPMINSQ Z3, Z2, Z5 \
	VPMINSQ Z5, Z4, Z4 \
	VPMINSQ Z4, Z28, Z28 \
	VPMAXSQ Z1, Z0, Z6 \
	VPMAXSQ Z3, Z2, Z7 \
	VPMAXSQ Z7, Z6, Z6 \
	VPMAXSQ Z6, Z29, Z29

// SETUP loads the arguments shared by both functions: DI the
// destination, SI the costs, CX the lines, Z30 and Z31 the range, R8 the
// accumulators (Z28, Z29), AX the lines done (0).
#define SETUP \
	MOVQ dst+0(FP), DI \
	MOVQ src+8(FP), SI \
	MOVQ lines+16(FP), CX \
	VPBROADCASTQ lo+24(FP), Z30 \
	VPBROADCASTQ span+32(FP), Z31 \
	MOVQ acc+40(FP), R8 \
	VMOVDQU64 0(R8), Z28 \
	VMOVDQU64 64(R8), Z29 \
	XORQ AX, AX

// FINISH fences the non-temporal stores, stores the accumulators and
// returns the lines done.
#define FINISH \
	SFENCE \
	VMOVDQU64 Z28, 0(R8) \
	VMOVDQU64 Z29, 64(R8) \
	VZEROUPPER \
	MOVQ AX, ret+48(FP) \
	RET

// START begins a function: its arguments (SETUP), then the loop's head,
// which returns once every line is done and runs LINES on the next.
#define START \
	SETUP \
loop: \
	CMPQ AX, CX \
	JEQ done \
	LINES

// NEXT moves on to the next line, the destination having taken step
// bytes of it.
#define NEXT(step) \
	ADDQ $256, SI \
	ADDQ step, DI \
	INCQ AX \
	JMP loop

// func fuseLines16(dst *int16, src *int64, lines int, lo int64, span uint64, acc *[16]int64) int
TEXT ·fuseLines16(SB), NOSPLIT, $0-56
	START
	VPMOVQW Z0, X4
	VPMOVQW Z1, X5
	VPMOVQW Z2, X6
	VPMOVQW Z3, X7
	VINSERTI32X4 $1, X5, Z4, Z4
	VINSERTI32X4 $2, X6, Z4, Z4
	VINSERTI32X4 $3, X7, Z4, Z4
	VMOVNTDQ Z4, 0(DI)
	NEXT($64)
done:
	FINISH

// func fuseLines32(dst *int32, src *int64, lines int, lo int64, span uint64, acc *[16]int64) int
TEXT ·fuseLines32(SB), NOSPLIT, $0-56
	START
	VPMOVQD Z0, Y4
	VPMOVQD Z1, Y5
	VINSERTI64X4 $1, Y5, Z4, Z4
	VMOVNTDQ Z4, 0(DI)
	VPMOVQD Z2, Y6
	VPMOVQD Z3, Y7
	VINSERTI64X4 $1, Y7, Z6, Z6
	VMOVNTDQ Z6, 64(DI)
	NEXT($128)
done:
	FINISH
