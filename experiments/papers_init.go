package experiments

// Interim: the papers registered at init until they move to their packages.
func init() {
	registerKleene()
	registerHungarian()
	registerDomination()
	registerAPSP()
	registerTreefix()
}
