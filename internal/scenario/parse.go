package scenario

import (
	"fmt"
	"strconv"

	"github.com/offload-sim/offload/internal/schema"
	"gopkg.in/yaml.v3"
)

// MaxFileSize is the largest scenario Parse reads, in bytes (1 MiB). The
// largest experiment file is a few kilobytes; the cap bounds what a
// mistaken path (a log, a binary, /dev/zero read by a careless caller) can
// cost: decoding is linear, but a megabyte of YAML is already some 10⁵ nodes
// and as many error lines.
const MaxFileSize = 1 << 20

// Parse reads a scenario file over Default, applies each --set override
// ("path=value", in order, see Set) and validates the result. filename is
// used in messages only. pols is the policy catalog: it names the known
// policies, gives the default list for a file without policies, and checks
// each entry's options; the scenario keeps it for Validate and Cells.
//
// Decoding is strict: an unknown key, a duplicate key or a value of the wrong
// type is an error with the file, line and column. All problems are returned
// together as Errors: decode errors, bad overrides and failed checks, except
// that a field whose value could not be decoded is not also reported as
// invalid. A semantic error carries the line of the value it is about, unless
// an override replaced that value.
func Parse(filename string, data []byte, sets []string, pols Policies) (*Scenario, error) {
	if pols == nil {
		return nil, Errors{{File: filename, Msg: "no policy catalog: Parse needs one to check the policies"}}
	}
	if len(data) > MaxFileSize {
		return nil, Errors{{File: filename, Msg: fmt.Sprintf("the file is %d bytes, which is out of range: a scenario is at most %d bytes (1 MiB)", len(data), MaxFileSize)}}
	}
	s := Default()
	s.pols = pols
	loc := &schema.Locator{}
	root, errs, bad := decode(data, &s, loc)
	errs.InFile(filename)
	if root == nil && len(errs) > 0 {
		return nil, errs
	}
	if loc.Child(root, "policies") == nil {
		// Not a null or an empty list, which say "none" and are refused.
		s.Policies = schema.Entries(pols.Defaults())
	}
	if s.Trace != nil && loc.Locate(root, path("workload", "size")) == nil {
		s.Workload.Size = Dist{} // the default law does not apply: the trace gives the sizes
	}
	errs, setSegs := schema.ApplySets(sets, errs, s.set)
	s.resolveObservation()
	s.resolveProcess(false)
	if verr := s.Validate(); verr != nil {
		p := schema.Placer{File: filename, Root: root, Loc: loc, Bad: bad, Sets: setSegs}
		errs = p.PlaceAll(errs, verr.(Errors))
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return &s, nil
}

// decode checks the document with a walker, then decodes the checked tree
// with yaml.v3. root is nil when there is nothing to validate (a syntax
// error, a document that is not a mapping); bad lists the fields whose value
// could not be decoded.
func decode(data []byte, s *Scenario, loc *schema.Locator) (root *yaml.Node, errs Errors, bad schema.PathSet) {
	root, errs = schema.ReadDocument(data, "a scenario")
	if errs != nil {
		return nil, errs, nil
	}
	if root == nil {
		return &yaml.Node{Kind: yaml.MappingNode}, nil, nil // an empty file: every default
	}
	if root.Kind != yaml.MappingNode {
		return nil, Errors{{Line: root.Line, Column: root.Column, Msg: schema.NodeKind(root) + " is not allowed: a scenario is a mapping (name, seed, tasks, tiers, ...)"}}, nil
	}
	errs, bad, ok := scenarioSchema.DecodeTree(root, s, tierNamer(tierNames(root, loc)))
	if !ok {
		return nil, errs, nil
	}
	restateSize(&s.Workload.Size, loc.Locate(root, path("workload", "size")))
	return root, errs, bad
}

// tierNames reads tier names straight from the tree, so that decode errors
// can say "tiers[1] (edge)" before anything is decoded.
func tierNames(root *yaml.Node, l *schema.Locator) func(int) string {
	return func(i int) string {
		if n := l.Locate(root, path("tiers", strconv.Itoa(i), "name")); n != nil && n.Kind == yaml.ScalarNode {
			return n.Value
		}
		return ""
	}
}
