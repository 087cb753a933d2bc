package lap

// PaperSteps are the phase names of the paper's O(n^4) Hungarian algorithm
// on every backend: "init" (allocating the data and copying the costs into
// the slack matrix) and the paper's six steps. cpu/paper reports exactly
// these; cuda/paper adds its transfers before and after them.
var PaperSteps = []string{"init", "step1", "step2", "step3", "step4", "step5", "step6"}
