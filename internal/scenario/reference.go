package scenario

import (
	"io"
	"io/fs"
	"reflect"
	"strings"

	"github.com/offload-sim/offload/internal/schema"
)

// The key reference of docs/scenario.md, written from the scenario types:
// every key by reflection on Scenario's yaml tags, what a value looks like
// (describe, as the error messages say it), its default from Default and
// the catalog, and its meaning from the field's doc comment; and every
// bound with its value and reason from the constants' doc comments. The
// comments are read from the package's source, which the caller hands in
// (this package reads no file of its own accord); a test fails when the
// page is stale.

// parts are the folders, under internal/scenario, of the packages that
// declare part of the scenario's types and bounds.
func parts() []string { return []string{"limit", "load", "tier"} }

// KeyRef is one key of a scenario file.
type KeyRef = schema.KeyRef

// LimitRef is one bound of Validate: its constants, their values and why.
type LimitRef = schema.LimitRef

// Reference reads the key and limit reference from the package's source
// files in src (the non-test .go files of internal/scenario, and of its
// sub-packages in their folders there) and the policy catalog pols (the
// default policy list).
func Reference(src fs.FS, pols Policies) ([]KeyRef, []LimitRef, error) {
	source, err := schema.ReadSource(src, "scenario", parts()...)
	if err != nil {
		return nil, nil, err
	}
	keys, err := scenarioSchema.Keys(reflect.TypeFor[Scenario](), reflect.ValueOf(Default()), source)
	if err != nil {
		return nil, nil, err
	}
	for i := range keys {
		if keys[i].Path == "policies" && pols != nil {
			keys[i].Default = strings.Join(pols.Defaults(), ", ")
		}
	}
	return keys, source.Limits, nil
}

// WriteKeyReference writes the key reference as a markdown table: every
// key of a scenario file in declaration order, what its value looks like,
// its default and its meaning.
func WriteKeyReference(w io.Writer, src fs.FS, pols Policies) error {
	keys, _, err := Reference(src, pols)
	if err != nil {
		return err
	}
	return schema.WriteKeys(w, keys)
}

// WriteLimitReference writes the bounds Validate enforces as a markdown
// table: the constants, their values and their reasons.
func WriteLimitReference(w io.Writer, src fs.FS) error {
	_, limits, err := Reference(src, nil)
	if err != nil {
		return err
	}
	return schema.WriteLimits(w, limits)
}
