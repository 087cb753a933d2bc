package experiments

// Internals the external tests (package experiments_test, which registers
// the papers) read.
var (
	ExperimentsIn  = experimentsIn
	RenderSections = renderSections
	WriteSummary   = writeSummary
)

// Slugger gives Markdown headings their anchors (slugger).
type Slugger = slugger

// Slug is slug.
func (s slugger) Slug(heading string) string { return s.slug(heading) }

// HeadlinePatterns is the experiment's headline patterns with the defaults.
func (e *Experiment) HeadlinePatterns() []string { return e.headline() }
