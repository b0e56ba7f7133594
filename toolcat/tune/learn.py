"""Learning a tuning: usage vectors and terms from every request, weights chosen on held-out
ones (`toolcat.tune.choose`), pick's threshold fitted (`toolcat.tune.threshold`).

What is learned (applied by `toolcat.search.tuning`): for every tool that requests used, the
mean embedding of those requests and their stems; the weights of the tuned score; pick's
"no tool fits" threshold, and the requests no tool fits with the margin that turns away
those nearer to them than to any tool (`toolcat.tune.abstain`).
"""

from __future__ import annotations

from toolcat.search.tuning import Tuning
from toolcat.tune.abstain import fit_abstention
from toolcat.tune.choose import SEED, choose
from toolcat.tune.material import Material, tool_usages
from toolcat.tune.threshold import fit_threshold


def learn(material: Material, seed: int = SEED) -> Tuning:
    """A tuning from every request of `material` (and the catalog's example requests)."""
    train = material.measured + material.examples
    choice = choose(material, train, seed)
    indices, usages = tool_usages(material, train)
    tools = material.catalog.tools
    report = {"requests": len(material.measured), "examples": len(material.examples),
              "tools_with_usage": len(usages), "learned_from": material.provenance(),
              **choice.to_json()}
    return Tuning(material.model, choice.weights,
                  {tools[i].qualified_name: u for i, u in zip(indices.tolist(), usages,
                                                               strict=True)},
                  fit_threshold(material, train, choice.weights, seed),
                  frozenset(material.digests), report,
                  abstention=fit_abstention(material, train, seed))

