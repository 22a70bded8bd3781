#!/usr/bin/env bash
# Gathers what the GPU machine needs to run amps and its tests into .gpu/ (git-ignored, under the device
# tool's 64 MiB limit): build/amps, the GPU test binary (cuda_tests), the golden runner and the Debian shared libraries they load (libdnnl,
# libantlr4-runtime, libfmt, ...; not libc/libstdc++, not libcuda/cuBLAS, which that machine has), packed
# as .gpu/amps-gpu.tgz (about 100 MiB unpacked), and .gpu/run.sh, which unpacks it there (again when it changes), sets
# LD_LIBRARY_PATH and runs a command.
#   tests/cuda_bundle.sh [BUILD]      then, with the device tool: carry [".gpu"], command:
#   .gpu/run.sh cuda_tests            (or: .gpu/run.sh amps -e 'print(cuda.available())')
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
OUT=.gpu/stage
rm -rf "$OUT" .gpu/amps-gpu.tgz  # other files in .gpu (a call script carried with it) stay
mkdir -p "$OUT/bin" "$OUT/lib"

# golden_runner: tests/lang/cuda/*.amps there. The CPU test binaries stay here (CI runs them; together they
# would take the bundle over the limit).
bins=("$BUILD/amps" "$BUILD/tests/golden_runner" "$BUILD/tests/cuda_tests")
cp "${bins[@]}" "$OUT/bin/"

# Libraries the GPU machine lacks: everything ldd resolves except the C runtime, the compiler's runtime and
# CUDA's own (the driver's libcuda and the toolkit's cuBLAS/cudart are there; cuBLASLt alone is ~500 MiB).
skip='^(linux-vdso|ld-linux|libc\.|libm\.|libpthread|libdl\.|librt\.|libstdc\+\+|libgcc_s|libcuda\.|libcublas|libcudart|libnvidia)'
# libamps.so too: bench/cuda_trace.py loads it into a PyTorch process to trace amps' kernels with CUPTI.
cp -L "$BUILD/interp/embed/libamps.so" "$OUT/lib/libamps.so"
for b in "${bins[@]}" "$OUT/lib/libamps.so"; do
  ldd "$b" | awk '/=> \//{print $1" "$3}'
done | sort -u | while read -r name path; do
  [[ "$name" =~ $skip ]] && continue
  cp -L "$path" "$OUT/lib/$name"
done
strip --strip-unneeded "$OUT"/bin/* "$OUT"/lib/libamps.so 2>/dev/null || true

tar czf .gpu/amps-gpu.tgz -C "$OUT" bin lib
rm -rf "$OUT"

cat > .gpu/run.sh <<'RUN'
#!/usr/bin/env bash
# Runs a bundled binary on the GPU machine (.gpu/run.sh bin/amps ...): unpacks the bundle into
# /tmp/amps-gpu once; bundled Debian libraries first on LD_LIBRARY_PATH, then the toolkit's and
# PyTorch's CUDA libraries (the folders holding libcublasLt.so.13 and libcudnn.so.9, which amps opens on its
# first GEMM and convolution, and libnvrtc, which cuDNN's runtime-compiled engines load).
here=/tmp/amps-gpu
tgz="$(dirname "$0")/amps-gpu.tgz"
stamp=$(stat -c %s-%Y "$tgz")
if [ "$(cat "$here/.stamp" 2>/dev/null)" != "$stamp" ]; then
  rm -rf "$here" && mkdir -p "$here" && tar xzf "$tgz" -C "$here" && echo "$stamp" > "$here/.stamp" || exit 1
fi
extra=""
for d in /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib; do [ -d "$d" ] && extra="$extra:$d"; done
lt=$(python3 -c 'import nvidia, os; print(os.path.dirname(list(nvidia.__path__)[0]))' 2>/dev/null || true)
[ -n "$lt" ] && for d in $(find "$lt/nvidia" \( -name 'libcublasLt.so*' -o -name 'libcudnn.so*' -o -name 'libnvrtc*.so*' \) \
                             -printf '%h\n' 2>/dev/null | sort -u); do extra="$extra:$d"; done
export LD_LIBRARY_PATH="$here/lib$extra${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
cmd=$1
shift
[[ "$cmd" == */* ]] || cmd="$here/bin/$cmd"
[[ "$cmd" == bin/* ]] && cmd="$here/$cmd"
exec "$cmd" "$@"
RUN
chmod +x .gpu/run.sh
size=$(du -sm .gpu | cut -f1)
echo "packed ${#bins[@]} binaries and their libraries into .gpu/amps-gpu.tgz (.gpu: ${size} MiB)"
[ "$size" -lt 64 ] || { echo "error: .gpu is over the device tool's 64 MiB limit" >&2; exit 1; }
