#include "textflag.h"

// func streamCopy64(dst, src *byte, blocks int)
// Copies blocks x 64 bytes from src to dst with non-temporal 16-byte
// stores (dst 16-byte aligned), then fences them.
TEXT ·streamCopy64(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ blocks+16(FP), CX
	TESTQ CX, CX
	JZ done
loop:
	MOVOU 0(SI), X0
	MOVOU 16(SI), X1
	MOVOU 32(SI), X2
	MOVOU 48(SI), X3
	MOVNTO X0, 0(DI)
	MOVNTO X1, 16(DI)
	MOVNTO X2, 32(DI)
	MOVNTO X3, 48(DI)
	ADDQ $64, SI
	ADDQ $64, DI
	DECQ CX
	JNZ loop
	SFENCE
done:
	RET
