package scenario

import "reflect"

// ParamLabel names a --set path (a sweep's param) for an axis title: the
// tier's name or the policy entry's label it is under, then each field's
// words, and the leaf's unit apart. "arrivals.rate" is ("arrival rate",
// "tasks/s"); "tiers.edge.servers" ("edge servers", ""); "tiers.cloud.delay.mean"
// ("cloud delay mean", "s"); "observation.period" ("observation period
// T", "s"). A policy entry's option reads as the estimator field of the
// same path, which the option overrides for that entry
// ("policies.h0.epsilon": "h0 exploration probability ε"); an option with
// no such field by its own name, without a unit. A path that names no
// field is returned as it is, with no unit.
func ParamLabel(path string) (label, unit string) {
	l, u, ok := scenarioSchema.Words(reflect.TypeFor[Scenario](), path)
	if !ok {
		return path, ""
	}
	return l, u
}
