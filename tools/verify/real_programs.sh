#!/usr/bin/env bash
# Real programs under Nsight Compute, predicted with and without the compiler
# witness (docs/witness.md, docs/real-code.md): SGEMM_CUDA's kernels 1-11,
# Rodinia's lavaMD, srad_v2, gaussian, backprop, pathfinder, lud, nw, hotspot
# (random inputs) and particlefilter, cuda-samples' reduction and
# matrixMul, and llm.c's dev/cuda/layernorm_forward.cu (kernels 1-6, each run
# over its six block sizes), at the commits of tools/survey/manifest.json.
#
#   tools/verify/real_programs.sh prepare CORPUS DIR   # here: sources, predictions
#   tools/verify/real_programs.sh measure DIR          # on a GPU machine: build, ncu
#   tools/verify/real_programs.sh compare DIR FIXTURES # offline: against recordings
#   tools/verify/real_programs.sh keep DIR FIXTURES    # keep the predictions beside them
#   tools/verify/real_programs.sh chains DIR FIXTURES  # inlining chains beside them
#
# CORPUS holds the checkouts as tools/survey/survey.py names them
# (siboehm+SGEMM_CUDA, yuhc+gpu-rodinia, NVIDIA+cuda-samples). `prepare` copies the programs' sources
# and the verify scripts into DIR (e.g. build-real/, which git ignores, so it
# can travel to a GPU machine) and makes the predictions there with
# build/bin/coalesce-lint: P_<prog>_w.json joined with the witness,
# P_<prog>_s.json the source analysis alone (--witness=off). `measure` builds
# each program with nvcc -O3 -lineinfo -arch=sm_90 (CUDA 13 dropped
# cudaThreadSynchronize: it is defined as cudaDeviceSynchronize) and records
# its first launches with coalesce_verify.py --prebuilt into $OUT/<prog>
# (tests/verify/fixtures/real-h200 holds such a recording). `compare` runs
# verify mode on the recordings, both predictions side by side. `keep` stores
# the predictions of `prepare` (gzipped, <prog>.predictions.json.gz and
# <prog>.source-predictions.json.gz) and each compared file's statement
# breaks (<stem>.breaks.json: the line numbers, not the source) beside the
# recordings, so that tools/verify/accuracy.py replays them anywhere, without
# the programs' sources (docs/accuracy.md).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
lint=${COALESCE_LINT:-$root/build/bin/coalesce-lint}
FLAGS="-DcudaThreadSynchronize=cudaDeviceSynchronize"
# Kernel 11 fails its own check against cuBLAS on an H200 (its numbers are
# still measured and compared); 12 is not analysed (clang errors).
SGEMM_KERNELS=${SGEMM_KERNELS:-"1 2 3 4 5 6 7 8 9 10 11"}
LLMC_LAYERNORM_KERNELS="1 2 3 4 5 6"
# Each kernel of llm.c's layernorm_forward, launched once per block size
# (32 to 1024) by its correctness check: up to 3 launches each.
LLMC_LAUNCHES=18

# Rodinia's other programs: name, directory under cuda/, the translation unit
# the predictions are made from, the file holding the kernels (compared), the
# build's other sources, its command line and how many launches to profile.
RODINIA=(
  "gaussian|gaussian|gaussian.cu|gaussian.cu||./prog -s 64|4"
  "backprop|backprop|backprop_cuda.cu|backprop_cuda_kernel.cu|backprop.c facetrain.c imagenet.c|./prog 65536|2"
  "pathfinder|pathfinder|pathfinder.cu|pathfinder.cu||./prog 100000 100 20|5"
  "lud|lud|cuda/lud_kernel.cu|cuda/lud_kernel.cu|cuda/lud.cu common/common.c|./prog -s 256|6"
  "nw|nw|needle.cu|needle_kernel.cu||./prog 2048 10|6"
  "hotspot|hotspot|hotspot.cu|hotspot.cu||./prog 512 2 2 temp_512 power_512 out.txt|2"
  "particlefilter|particlefilter|ex_particle_CUDA_naive_seq.cu|ex_particle_CUDA_naive_seq.cu||./prog -x 128 -y 128 -z 4 -np 4096|4"
  "bfs|bfs|bfs.cu|kernel.cu||./prog graph65536.txt|6"
  "bfs2|bfs|bfs.cu|kernel2.cu||./prog graph65536.txt|6"
  "nn|nn|nn_cuda.cu|nn_cuda.cu||./prog files4 -r 5 -lat 30 -lng 90|1"
)
# cuda-samples: name, directory, translation unit, kernels' file, other sources, run, launches.
SAMPLES=(
  "reduction6|Samples/2_Concepts_and_Techniques/reduction|reduction_kernel.cu|reduction_kernel.cu|reduction.cpp|./prog --kernel=6|1"
  "reduction2|Samples/2_Concepts_and_Techniques/reduction|reduction_kernel.cu|reduction_kernel.cu|reduction.cpp|./prog --kernel=2|1"
  "matrixMul|Samples/0_Introduction/matrixMul|matrixMul.cu|matrixMul.cu||./prog|1"
)
RODINIA_FLAGS="$FLAGS -DclockRate=multiProcessorCount -DdeviceOverlap=asyncEngineCount"
# The sizes a user would state for the run above (docs/real-code.md, "With
# the run's sizes stated"): predictions made with them too (P_<name>_a.json,
# joined with the witness), compared as a third prediction by accuracy.py.
declare -A STATED=(
  [nw]="--assume=cols=2049"
  [backprop]="--assume=hid=16"
  [lud]="--assume=matrix_dim=256"
  [pathfinder]="--assume=cols=100000 --assume=rows=100 --assume=pyramid_height=20"
  [hotspot]="--assume=grid_rows=512 --assume=grid_cols=512 --assume=pyramid_height=2 --assume=total_iterations=2"
)

sgemm_header() { # DIR K: the header of SGEMM_CUDA's kernel K
  local f
  for f in "$1"/src/kernels/"$2"_kernel*.cuh "$1"/src/kernels/"$2"_naive.cuh; do
    [[ -e $f ]] && { echo "$f"; return; }
  done
}

predict() { # DIR NAME FILE ARGS...: predictions with and without the witness
  local dir=$1 name=$2 file=$3
  shift 3
  (cd "$dir" && "$lint" --format=json --exit-zero "$file" -- "$@" > "P_${name}_w.json" &&
    "$lint" --format=json --exit-zero --witness=off "$file" -- "$@" > "P_${name}_s.json")
}

case ${1:-} in
prepare)
  corpus=$2 dir=$3
  mkdir -p "$dir"
  cp "$root"/tools/verify/coalesce_verify.py "$root"/tools/verify/verify_report.py "$dir"/
  rm -rf "$dir"/sgemm "$dir"/lavaMD "$dir"/srad_v2
  mkdir -p "$dir"/sgemm
  cp -r "$corpus"/siboehm+SGEMM_CUDA/{sgemm.cu,src} "$dir"/sgemm/
  cp -r "$corpus"/yuhc+gpu-rodinia/cuda/lavaMD "$corpus"/yuhc+gpu-rodinia/cuda/srad/srad_v2 "$dir"/
  predict "$dir" sgemm sgemm/src/runner.cu -Isgemm/src
  predict "$dir" lavaMD lavaMD/kernel/kernel_gpu_cuda_wrapper.cu $FLAGS
  predict "$dir" srad srad_v2/srad.cu $FLAGS
  for row in "${RODINIA[@]}"; do
    IFS='|' read -r name sub tu _ _ _ _ <<< "$row"
    rm -rf "$dir/r_$name" && cp -r "$corpus/yuhc+gpu-rodinia/cuda/$sub" "$dir/r_$name"
    predict "$dir" "$name" "r_$name/$tu" -I"r_$name/$(dirname "$tu")" $RODINIA_FLAGS
    if [[ -n ${STATED[$name]:-} ]]; then
      # shellcheck disable=SC2086
      (cd "$dir" && "$lint" --format=json --exit-zero ${STATED[$name]} "r_$name/$tu" -- \
        -I"r_$name/$(dirname "$tu")" $RODINIA_FLAGS > "P_${name}_a.json")
    fi
  done
  for row in "${SAMPLES[@]}"; do
    IFS='|' read -r name sub tu _ _ _ _ <<< "$row"
    rm -rf "$dir/s_$name" && mkdir -p "$dir/s_$name" && cp -r "$corpus/NVIDIA+cuda-samples/$sub"/* "$dir/s_$name/"
    cp -r "$corpus/NVIDIA+cuda-samples/Common" "$dir/s_$name/Common"
    predict "$dir" "$name" "s_$name/$tu" -I"s_$name" -I"s_$name/Common"
  done
  rm -rf "$dir/llmc" && mkdir -p "$dir/llmc"
  cp "$corpus"/karpathy+llm.c/dev/cuda/{layernorm_forward.cu,common.h} "$dir/llmc/"
  predict "$dir" layernorm_forward llmc/layernorm_forward.cu
  echo "prepared $dir; on the GPU machine: tools/verify/real_programs.sh measure $dir"
  ;;
measure)
  dir=$(cd "$2" && pwd) out=${OUT:-$dir/recordings}
  mkdir -p "$out"
  F="-O3 -lineinfo -arch=sm_90 $FLAGS"
  cd "$dir"
  # $REAL_ONLY=others: only the programs after SGEMM_CUDA, lavaMD and srad_v2;
  # sgemm: only SGEMM_CUDA ($SGEMM_KERNELS of them).
  if [[ ${REAL_ONLY:-} != others && ${REAL_ONLY:-} != llmc ]]; then
    (cd sgemm && nvcc $F sgemm.cu src/runner.cu -Isrc -lcublas -o sgemm)
    for k in $SGEMM_KERNELS; do
      h=$(sgemm_header sgemm "$k")
      # Kernel 11's run ends with its failed check (exit 1) after the
      # profiled launches: its counters are kept.
      (cd sgemm && python3 ../coalesce_verify.py --prebuilt "sh -c './sgemm $k || true'" --launch-count 3 --no-timing \
        --predictions ../P_sgemm_w.json --source-predictions ../P_sgemm_s.json \
        --record "$out"/sgemm "${h#sgemm/}" | tail -n 1 || true)
    done
    [[ ${REAL_ONLY:-} == sgemm ]] && exit 0
    (cd lavaMD && nvcc $F main.c kernel/kernel_gpu_cuda_wrapper.cu util/num/num.c util/timer/timer.c \
      util/device/device.cu -o lavaMD -Xcompiler -fopenmp -lgomp)
    (cd srad_v2 && nvcc $F srad.cu -o srad)
    (cd lavaMD && python3 ../coalesce_verify.py --prebuilt "./lavaMD -boxes1d 10" --launch-count 1 \
      --no-timing --predictions ../P_lavaMD_w.json --source-predictions ../P_lavaMD_s.json \
      --record "$out"/rodinia kernel/kernel_gpu_cuda.cu | tail -n 2 || true)
    (cd srad_v2 && python3 ../coalesce_verify.py --prebuilt "./srad 1024 1024 0 127 0 127 0.5 2" \
      --launch-count 4 --no-timing --predictions ../P_srad_w.json --source-predictions ../P_srad_s.json \
      --record "$out"/rodinia srad_kernel.cu | tail -n 2 || true)
  fi
  # llm.c: $REAL_ONLY=llmc runs only these.
  if [[ -z ${REAL_ONLY:-} || $REAL_ONLY == llmc ]]; then
    (cd llmc && nvcc $F --use_fast_math layernorm_forward.cu -lcublas -lcublasLt -o layernorm_forward &&
      for k in $LLMC_LAYERNORM_KERNELS; do
        python3 ../coalesce_verify.py --prebuilt "./layernorm_forward $k" --launch-count $LLMC_LAUNCHES \
          --no-timing --predictions ../P_layernorm_forward_w.json \
          --source-predictions ../P_layernorm_forward_s.json \
          --record "$out/llmc/layernorm_forward_$k" layernorm_forward.cu | tail -n 1 | sed "s/^/layernorm_forward $k: /" || true
      done)
    [[ ${REAL_ONLY:-} == llmc ]] && exit 0
  fi
  # bfs's input: a random graph of 65536 nodes of 1 to 8 edges each (Rodinia's
  # graph format); nn's: the records of its own generator.
  python3 -c "import random
random.seed(1)
n = 65536
deg = [random.randint(1, 8) for _ in range(n)]
out = [str(n)]
start = 0
for d in deg:
    out.append('%d %d' % (start, d))
    start += d
out += ['0', str(start)]
out += ['%d %d' % (random.randrange(n), random.randint(1, 10)) for _ in range(start)]
for d in ('r_bfs', 'r_bfs2'):
    open(d + '/graph65536.txt', 'w').write('\\n'.join(out) + '\\n')"
  (cd r_nn && mkdir -p data && gcc -O2 hurricane_gen.c -o hurricane_gen -lm &&
    ./hurricane_gen 65536 4 > /dev/null && ls data/cane4_*.db > files4) || true
  # hotspot's inputs: 512x512 random temperatures and powers.
  python3 -c "import random
for f, lo, hi in (('temp_512', 320, 340), ('power_512', 0, 0.01)):
    open('r_hotspot/' + f, 'w').write(''.join('%f\\n' % random.uniform(lo, hi) for _ in range(512 * 512)))"
  for row in "${RODINIA[@]}" "${SAMPLES[@]}"; do
    IFS='|' read -r name sub tu kern other cmd launches <<< "$row"
    # $REAL_NAMES: only these programs.
    [[ -z ${REAL_NAMES:-} || " $REAL_NAMES " == *" $name "* ]] || continue
    d=r_$name; [[ -d $d ]] || d=s_$name
    out_dir=rodinia; [[ $d == s_* ]] && out_dir=cuda-samples
    pf=$RODINIA_FLAGS; [[ $d == s_* ]] && pf=$FLAGS
    (cd "$d" && nvcc $F $pf -I. -Icommon -ICommon $tu $other -o prog -lm 2> build.err ||
      { echo "$name: build failed: $(tail -n 3 build.err)"; exit 0; }
      python3 ../coalesce_verify.py --prebuilt "$cmd" --launch-count "$launches" --no-timing \
        --predictions "../P_${name}_w.json" --source-predictions "../P_${name}_s.json" \
        --record "$out/$out_dir/$name" "$kern" | tail -n 2 | sed "s/^/$name: /" || true)
  done
  ;;
compare)
  dir=$(cd "$2" && pwd) fixtures=$(cd "$3" && pwd)
  cd "$dir"
  for k in $SGEMM_KERNELS; do
    h=$(sgemm_header sgemm "$k")
    echo "SGEMM_CUDA kernel $k: $( (cd sgemm && python3 ../coalesce_verify.py --measurements "$fixtures"/sgemm \
      --predictions ../P_sgemm_w.json --source-predictions ../P_sgemm_s.json "${h#sgemm/}" || true) |
      grep 'source analysis alone')"
  done
  echo "Rodinia lavaMD: $( (cd lavaMD && python3 ../coalesce_verify.py --measurements "$fixtures"/rodinia \
    --predictions ../P_lavaMD_w.json --source-predictions ../P_lavaMD_s.json kernel/kernel_gpu_cuda.cu || true) |
    grep 'source analysis alone')"
  echo "Rodinia srad_v2: $( (cd srad_v2 && python3 ../coalesce_verify.py --measurements "$fixtures"/rodinia \
    --predictions ../P_srad_w.json --source-predictions ../P_srad_s.json srad_kernel.cu || true) |
    grep 'source analysis alone')"
  for k in $LLMC_LAYERNORM_KERNELS; do
    [[ -d $fixtures/llmc/layernorm_forward_$k ]] || { echo "llm.c layernorm_forward $k: not recorded"; continue; }
    echo "llm.c layernorm_forward $k: $( (cd llmc && python3 ../coalesce_verify.py \
      --measurements "$fixtures/llmc/layernorm_forward_$k" --predictions ../P_layernorm_forward_w.json \
      --source-predictions ../P_layernorm_forward_s.json layernorm_forward.cu || true) |
      grep 'source analysis alone')"
  done
  for row in "${RODINIA[@]}" "${SAMPLES[@]}"; do
    IFS='|' read -r name sub tu kern other cmd launches <<< "$row"
    d=r_$name; [[ -d $d ]] || d=s_$name
    out_dir=rodinia; [[ $d == s_* ]] && out_dir=cuda-samples
    [[ -d $fixtures/$out_dir/$name ]] || { echo "$name: not recorded"; continue; }
    echo "$name: $( (cd "$d" && python3 ../coalesce_verify.py --measurements "$fixtures/$out_dir/$name" \
      --predictions "../P_${name}_w.json" --source-predictions "../P_${name}_s.json" "$kern" || true) |
      grep 'source analysis alone')"
  done
  ;;
chains)
  # The inlining chains of each program's inlined memory instructions
  # (<stem>.inlined.json.gz beside its recording, for verify mode to place
  # header code on its call's line), read from a compile of its device
  # code with the flags `measure` builds it with; recordings made before
  # `measure` wrote them get them this way.
  dir=$(cd "$2" && pwd) fixtures=$(cd "$3" && pwd)
  F="-O3 -lineinfo -arch=sm_90 $FLAGS"
  chains() { # DEST_DIR STEM TU FLAGS...: the TU's chains, kept as STEM's
    local dest=$1 stem=$2 tu=$3 cubin
    shift 3
    cubin=$(mktemp --suffix=.cubin)
    # shellcheck disable=SC2086
    nvcc -cubin $F "$@" -o "$cubin" "$tu"
    python3 -c "import json, sys
sys.path.insert(0, '$root/tools/verify')
from coalesce_verify import inline_map_of, write_inline_map
m = inline_map_of(sys.argv[1])
if m is None: sys.exit('nvdisasm not found')
if m['functions']:
    write_inline_map(sys.argv[2], m)
    print(sys.argv[2])" "$cubin" "$dest/$stem.inlined.json.gz"
    rm -f "$cubin"
  }
  cd "$dir"
  for k in $SGEMM_KERNELS; do
    h=$(sgemm_header sgemm "$k")
    (cd sgemm && chains "$fixtures/sgemm" "$(basename "${h%.*}")" src/runner.cu -Isrc)
  done
  (cd lavaMD && chains "$fixtures/rodinia" kernel_gpu_cuda kernel/kernel_gpu_cuda_wrapper.cu)
  (cd srad_v2 && chains "$fixtures/rodinia" srad_kernel srad.cu)
  (cd llmc && chains "$fixtures/llmc" layernorm_forward layernorm_forward.cu --use_fast_math)
  for row in "${RODINIA[@]}" "${SAMPLES[@]}"; do
    IFS='|' read -r name sub tu kern other cmd launches <<< "$row"
    d=r_$name; [[ -d $d ]] || d=s_$name
    out_dir=rodinia; [[ $d == s_* ]] && out_dir=cuda-samples
    pf=$RODINIA_FLAGS; [[ $d == s_* ]] && pf=$FLAGS
    # shellcheck disable=SC2086
    (cd "$d" && chains "$fixtures/$out_dir/$name" "$(basename "${kern%.*}")" "$tu" $pf -I. -Icommon -ICommon)
  done
  ;;
keep)
  dir=$(cd "$2" && pwd) fixtures=$(cd "$3" && pwd)
  store() { # NAME DEST_DIR KERNEL_FILE...: predictions and statement breaks
    local name=$1 dest=$2 f
    shift 2
    mkdir -p "$dest"
    gzip -9n -c "$dir/P_${name}_w.json" > "$dest/$name.predictions.json.gz"
    gzip -9n -c "$dir/P_${name}_s.json" > "$dest/$name.source-predictions.json.gz"
    if [[ -e $dir/P_${name}_a.json ]]; then
      gzip -9n -c "$dir/P_${name}_a.json" > "$dest/$name.stated-predictions.json.gz"
    fi
    for f in "$@"; do
      python3 -c "import json, sys
sys.path.insert(0, '$root/tools/verify')
from coalesce_verify import statement_breaks
json.dump(statement_breaks(sys.argv[1]), open(sys.argv[2], 'w'))" \
        "$f" "$dest/$(basename "${f%.*}").breaks.json"
    done
  }
  headers=()
  for k in $SGEMM_KERNELS; do headers+=("$(sgemm_header "$dir/sgemm" "$k")"); done
  store sgemm "$fixtures/sgemm" "${headers[@]}"
  store lavaMD "$fixtures/rodinia" "$dir/lavaMD/kernel/kernel_gpu_cuda.cu"
  store srad "$fixtures/rodinia" "$dir/srad_v2/srad_kernel.cu"
  store layernorm_forward "$fixtures/llmc" "$dir/llmc/layernorm_forward.cu"
  for row in "${RODINIA[@]}" "${SAMPLES[@]}"; do
    IFS='|' read -r name sub tu kern other cmd launches <<< "$row"
    d=r_$name; [[ -d $dir/$d ]] || d=s_$name
    out_dir=rodinia; [[ $d == s_* ]] && out_dir=cuda-samples
    store "$name" "$fixtures/$out_dir/$name" "$dir/$d/$kern"
  done
  echo "kept the predictions of $dir in $fixtures"
  ;;
*)
  sed -n '2,30p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
  exit 2
  ;;
esac
