/** The text `compare --help` and `replay --help` print after the options. */

export const COMPARE_HELP = `
A and B are run folders (reports/runs/…, an --out DIR, reports/latest) or their
conformance.json; certified packages are read the same way. Per requirement:
  regressed         judged in both and worse in B (passed → failed, warned → failed, …);
                    a slice passed → failed counts as a regression too
  fixed             judged in both and better in B
  newly tested      not tested or not selected in A, judged in B
  newly not tested  judged in A, not tested or not selected in B
Differences of suite source, spec text, catalog, target, settings or scope are
named first as warnings (from the runs' provenance when they record it), then
whether the generated inputs (the property tests' values from the seed) match.

Exit codes:
  0  no regression
  1  a requirement or a slice regressed
  2  bad input: a missing folder, a folder without conformance.json, a file that is
     not valid JSON or not a lockconf result, a run that could not be carried out
     (verdict error: nothing to compare); one message

Examples:
  lockconf compare reports/runs/2026-11-20T09-00-00-1a2b reports/latest
  lockconf compare before/ after/ --html compare.html
  lockconf compare before/conformance.json after/conformance.json --json
`;

export const REPLAY_HELP = `
Runs again with what DIR's conformance.json recorded: the kind of run (service,
--receiver URL, --client), the scope (--only), the seed, the expect file's content
and every behaviour-changing setting recorded as changed (provenance.settings);
a setting set here that the original left at its default is unset for the replay.
The embedded mock is used when the original ran on it; any other target needs its
profile again (--target FILE or LOCKCONF_* variables): secrets are never recorded.
It warns when the suite's source or the spec text differs from the recorded ones,
writes the new run (with compare.json and compare.html against the original) and
prints the comparison of the original and the replay.

Exit codes:
  0  reproduced: the same verdict, every requirement and slice unchanged, the same
     generated inputs
  1  the replay differs from the original (the comparison says where)
  2  cannot replay: DIR is no lockconf result or a run that could not be carried
     out, it records no seed, its target needs a profile, or the new run could not
     be carried out (one message)

Examples:
  lockconf replay reports/latest
  lockconf replay results/2026-11-20 --target sandbox.json --out results/replay
`;
