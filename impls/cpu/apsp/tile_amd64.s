//go:build amd64 && !purego

#include "textflag.h"

// func minPlusTile4x16(c *float32, ldc int, a *float32, lda int, b *float32, ldb int, k int)
//
// For r in 0..3, j in 0..15, m in 0..k-1, in this order of m:
//   s := a[r*lda+m] + b[m*ldb+j]; if s < c[r*ldc+j] { c[r*ldc+j] = s }
// VMINPS returns its second source when the first is NaN or not below it,
// which is exactly the comparison above (a NaN sum leaves c unchanged).
TEXT ·minPlusTile4x16(SB), NOSPLIT, $0-56
	MOVQ c+0(FP), DI
	MOVQ ldc+8(FP), R8
	SHLQ $2, R8
	MOVQ a+16(FP), SI
	MOVQ lda+24(FP), R9
	SHLQ $2, R9
	MOVQ b+32(FP), DX
	MOVQ ldb+40(FP), R10
	SHLQ $2, R10
	MOVQ k+48(FP), CX

	LEAQ (DI)(R8*1), R11
	LEAQ (R11)(R8*1), R12
	LEAQ (R12)(R8*1), R13
	VMOVUPS (DI), Y0
	VMOVUPS 32(DI), Y1
	VMOVUPS (R11), Y2
	VMOVUPS 32(R11), Y3
	VMOVUPS (R12), Y4
	VMOVUPS 32(R12), Y5
	VMOVUPS (R13), Y6
	VMOVUPS 32(R13), Y7

	LEAQ (SI)(R9*1), R14
	LEAQ (R14)(R9*1), BX
	LEAQ (BX)(R9*1), AX

	TESTQ CX, CX
	JEQ   done

loop:
	VMOVUPS      (DX), Y8
	VMOVUPS      32(DX), Y9
	VBROADCASTSS (SI), Y10
	VADDPS       Y8, Y10, Y11
	VADDPS       Y9, Y10, Y12
	VMINPS       Y0, Y11, Y0
	VMINPS       Y1, Y12, Y1
	VBROADCASTSS (R14), Y10
	VADDPS       Y8, Y10, Y11
	VADDPS       Y9, Y10, Y12
	VMINPS       Y2, Y11, Y2
	VMINPS       Y3, Y12, Y3
	VBROADCASTSS (BX), Y10
	VADDPS       Y8, Y10, Y11
	VADDPS       Y9, Y10, Y12
	VMINPS       Y4, Y11, Y4
	VMINPS       Y5, Y12, Y5
	VBROADCASTSS (AX), Y10
	VADDPS       Y8, Y10, Y11
	VADDPS       Y9, Y10, Y12
	VMINPS       Y6, Y11, Y6
	VMINPS       Y7, Y12, Y7
	ADDQ         $4, SI
	ADDQ         $4, R14
	ADDQ         $4, BX
	ADDQ         $4, AX
	ADDQ         R10, DX
	DECQ         CX
	JNE          loop

done:
	VMOVUPS Y0, (DI)
	VMOVUPS Y1, 32(DI)
	VMOVUPS Y2, (R11)
	VMOVUPS Y3, 32(R11)
	VMOVUPS Y4, (R12)
	VMOVUPS Y5, 32(R12)
	VMOVUPS Y6, (R13)
	VMOVUPS Y7, 32(R13)
	VZEROUPPER
	RET
