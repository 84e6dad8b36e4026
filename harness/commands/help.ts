/** The text `--help` prints after the options: exit codes and environment variables. */

const EXIT_CODES = `
Exit codes:
  0  conformant; or partial: everything in scope passed, but the run was narrowed
     by --only, weakened by a setting below that says so, or a MUST failure was
     excused by --expect: it certifies nothing beyond its scope (CI can gate on
     a scope); or incomplete with --allow-incomplete
  1  not conformant: a MUST requirement failed; incomplete: a MUST requirement
     was not tested (a run missing control, a user token or a reachable capture
     URL); interrupted: Ctrl-C or SIGTERM stopped the run (the reports hold what
     ran); interfered: someone else reset the target during the run
  2  the run could not be carried out: bad profile or option, target unreachable,
     client credentials, API key or control token refused at preflight, the
     target's lease held by another run. The reports are still written, with
     "verdict": "error" and the reason.`;

const LIMITS = `
Limits (docs/target-profile.md#limits):
  An answer's body is read up to 8 MiB, a webhook delivery's up to 1 MiB; an answer
  waits up to 15 s. Past a limit the exchange is evidence ("body larger than 8 MiB,
  not read"), the requirement fails and the run still reports.`;

const VARIABLES = `
Environment variables:
  LOCKCONF_AUTH_URL, LOCKCONF_BASE_URL, LOCKCONF_CLIENT_ID, LOCKCONF_CLIENT_SECRET,
  LOCKCONF_API_KEY, LOCKCONF_REDIRECT_URI, LOCKCONF_CONTROL_URL, LOCKCONF_CONTROL_TOKEN,
  LOCKCONF_FIXTURES, LOCKCONF_CAPTURE, LOCKCONF_STATUS_CHECK, LOCKCONF_TOKEN_CACHE
                             profile fields; each wins over the --target file. Setting
                             any of them without --target makes the environment the
                             profile (the embedded mock is then not started)
  LOCKCONF_MOCK_OPTIONS      JSON options of the embedded mock, e.g. {"faults":["state-truncated"]}
  LOCKCONF_DELIVERY_WAIT_MS  how long an expected webhook delivery is waited for (default 15000;
                             shorter weakens the run)
  LOCKCONF_QUIET_WINDOW_MS   how long "nothing (more) arrives" is listened for (default 500, 250
                             against the embedded mock; shorter weakens the run)
  LOCKCONF_TEST_TIMEOUT_SCALE  multiplies every test timeout (default 1); a test that does not
                             finish runs again alone with its timeouts x 4 before the verdict
  LOCKCONF_PREFLIGHT=0       skip the credential checks made before any test (weakens the run)
  LOCKCONF_SIGN_IN=off       leave the sign-in screens (driven with Chromium) out of the run, as
                             --no-sign-in does (weakens the run)
  LOCKCONF_LEASE_WAIT_MS     how long to wait for another run's lease on the target (default
                             60000; then exit 2 naming the holder)
  LOCKCONF_SEQUENTIAL=1      one test at a time, even when the fixtures let tests run side by side
  LOCKCONF_CONNECT_URL       --client: the application's address that starts authorization
                             (the profile's connectUrl); without it the probes do not run
  LOCKCONF_REFRESH_URL       --client: an address that makes the application refresh its token
                             now (the profile's refreshUrl)
  LOCKCONF_ACTION_URLS       --client: addresses POSTed to once signed in, in order, space- or
                             comma-separated (the profile's actionUrls)
  LOCKCONF_TARGET_FILE       --client: the grading mock's profile when --target is not given
                             (default .lockconf/mock-target.json)
  LOCKCONF_NO_ALLURE=1       same as --no-allure
  LOCKCONF_EXPLORE           same as --explore (N sequences, or a duration: 45s, 2m); with --seed,
                             LOCKCONF_EXPLORE_PATH (the path a finding reports) replays its shrunk sequence
  LOCKCONF_SIGNING_KEY       the Ed25519 private key's PEM file --certify signs with (never argv;
                             lockconf keygen --out DIR makes one; docs/certification.md)
  LOCKCONF_DRIVER            with --client: http (default) or chromium (same as --browser, or the
                             profile's "driver"); LOCKCONF_CHROMIUM: the Chromium binary
                             (default /usr/bin/chromium)
  LOCKCONF_CLIENT_PROBES     with --client: the probe families to drive, e.g. session,denial (of
                             session, state, denial, api-401, refresh-refused; default all): the
                             rules of those left out are not tested (weakens the run)
  NO_COLOR, FORCE_COLOR      colour of the output (none when it is not a terminal)`;

export const CONFORMANCE_HELP = `${EXIT_CODES}
${VARIABLES}
${LIMITS}

Examples:
  lockconf conformance                                   the embedded reference mock
  lockconf conformance --target sandbox.json             another implementation
  lockconf conformance --only 'WEBHOOK-*' --allow-incomplete
  lockconf conformance --explore 2m                      explore deeper: random sequences for two minutes
  LOCKCONF_SIGNING_KEY=keys/signing-key.pem lockconf conformance --target t.json --certify
                                                         a signed package (--certify: full scope,
                                                         default strictness, no expected failures;
                                                         refused with exit 2 otherwise)
  lockconf conformance --client --browser                your application's pages, driven by Chromium
`;

export const PROGRAM_HELP = `
Run \`lockconf conformance --help\` for the exit codes and environment variables;
\`lockconf --version\` for the version and the source it runs from.
Certificates: \`lockconf keygen --out DIR\`, \`conformance --certify\`, \`lockconf verify DIR --key PUB\`
(exit 0 valid, 1 invalid, 2 could not verify): docs/certification.md.`;
