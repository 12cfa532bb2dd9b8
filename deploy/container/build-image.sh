#!/usr/bin/env bash
# Builds the image the container executor runs the model's programs in, locally and without a
# registry: a root file system made of Debian packages (the ones below and everything they depend
# on, unpacked with dpkg-deb) plus the Node binary Folio itself runs on, imported with `<engine> import`.
#
#   deploy/container/build-image.sh [--force]
#
# FOLIO_EXECUTOR_RUNTIME (default podman) is the engine, FOLIO_EXECUTOR_IMAGE (default
# folio-tools:bookworm) the image's name, the same variables the workers read. An image that is
# already there is kept unless --force is given. Needs apt (a Debian bookworm host), dpkg-deb,
# ldconfig and a reachable Debian mirror; .deb files already in apt's cache are not downloaded again.
set -euo pipefail

ENGINE=${FOLIO_EXECUTOR_RUNTIME:-podman}
IMAGE=${FOLIO_EXECUTOR_IMAGE:-folio-tools:bookworm}
force=0
[ "${1:-}" = "--force" ] && force=1

if [ "$force" = 0 ] && "$ENGINE" image inspect "$IMAGE" >/dev/null 2>&1; then
  echo "build-image: $IMAGE is already there (--force rebuilds it)"
  exit 0
fi

# A shell and the usual commands for `shell`, Python with numpy/pandas/matplotlib for `run_python`,
# the fonts its figures need (Chinese labels included).
PACKAGES="dash bash coreutils findutils grep sed mawk diffutils tar gzip procps
  python3 python3-numpy python3-pandas python3-matplotlib fonts-dejavu-core fonts-noto-cjk libstdc++6 libgcc-s1"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rootfs="$work/rootfs"
mkdir -p "$work/debs" "$rootfs"

# Every package the list needs, as apt resolves it for an empty system. Build-time packages that the
# Debian packaging makes hard dependencies (scipy's pythran pulls in g++ and boost; the Python headers;
# Tk for an interactive backend no program here can show) are marked as already there, so they stay out.
OUT="python3-pythran g++ g++-12 gcc gcc-12 cpp cpp-12 libstdc++-12-dev libboost-dev libboost1.74-dev
  libxsimd-dev libopenblas-dev libopenblas-pthread-dev python3-dev python3-all-dev python3-all binutils
  libc6-dev usrmerge perl python3-tk python3-pil.imagetk libpython3.11-dev libpython3-dev
  libpython3-all-dev python3.11-dev"
for p in $OUT; do
  printf 'Package: %s\nStatus: install ok installed\nVersion: 99:1\nArchitecture: all\nMaintainer: none\nDescription: left out\n\n' "$p"
done >"$work/status"
# shellcheck disable=SC2086
closure=$(apt-get -s -o Dir::State::status="$work/status" --no-install-recommends install $PACKAGES | awk '/^Inst /{print $2}')
[ -n "$closure" ] || { echo "build-image: apt resolved no packages" >&2; exit 1; }

cd "$work/debs"
need=""
# shellcheck disable=SC2086
while read -r _ file _; do
  if [ -f "/var/cache/apt/archives/$file" ]; then cp "/var/cache/apt/archives/$file" .; else need="$need ${file%%_*}"; fi
done < <(apt-get download --print-uris $closure | tr -d "'")
if [ -n "$need" ]; then
  # shellcheck disable=SC2086
  apt-get download -q $need 2>&1 | grep -v 'Download is performed unsandboxed' || true
fi
echo "build-image: $(ls ./*.deb | wc -l) packages ready after ${SECONDS} s"
count=$(ls ./*.deb | wc -l)
for deb in ./*.deb; do dpkg-deb -x "$deb" "$rootfs"; done
cd - >/dev/null

# What maintainer scripts would have made: the awk alternative, the loader cache, users, certificates.
ln -sf mawk "$rootfs/usr/bin/awk"
ln -sf blas/libblas.so.3 "$rootfs/usr/lib/x86_64-linux-gnu/libblas.so.3"
ln -sf lapack/liblapack.so.3 "$rootfs/usr/lib/x86_64-linux-gnu/liblapack.so.3"
printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n' >"$rootfs/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' >"$rootfs/etc/group"
if [ -f /etc/ssl/certs/ca-certificates.crt ]; then
  mkdir -p "$rootfs/etc/ssl/certs"
  cp /etc/ssl/certs/ca-certificates.crt "$rootfs/etc/ssl/certs/"
fi
# Node: the very binary Folio runs on, so run_script's scripts run on the version Folio is tested with.
mkdir -p "$rootfs/usr/local/bin"
cp "$(command -v node)" "$rootfs/usr/local/bin/node"
mkdir -p "$rootfs/workspace" "$rootfs/tmp" "$rootfs/root"
ldconfig -r "$rootfs"
rm -rf "$rootfs/usr/share/doc" "$rootfs/usr/share/man" "$rootfs/usr/share/info" "$rootfs/usr/share/locale" "$rootfs/var/cache/debconf"
# Figures need a regular and a bold CJK face, not the six other weights (90 MB of the image).
find "$rootfs/usr/share/fonts/opentype/noto" -name '*.ttc' ! -name 'NotoSansCJK-Regular.ttc' ! -name 'NotoSansCJK-Bold.ttc' -delete

tar -C "$rootfs" -c . | "$ENGINE" import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'ENV LANG=C.UTF-8' \
  --change 'WORKDIR /workspace' \
  --change 'CMD ["/bin/sh"]' \
  - "$IMAGE" >/dev/null
echo "build-image: $IMAGE built from $count Debian packages and Node $(node --version) ($(du -sh "$rootfs" | cut -f1)) in ${SECONDS} s"
