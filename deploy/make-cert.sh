#!/bin/sh
# A self-signed certificate for HAProxy (deploy/haproxy-tls.cfg), to try the container setup
# before a real certificate is at hand: writes deploy/certs/localhost.pem (certificate then
# key, as HAProxy reads it). Browsers warn about a self-signed certificate; use a real one
# (e.g. Let's Encrypt) for anything public.
set -eu
dir="$(dirname "$0")/certs"
name="${1:-localhost}"
mkdir -p "$dir"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
openssl req -x509 -newkey rsa:2048 -nodes -days 365 -subj "/CN=$name" \
    -addext "subjectAltName=DNS:$name,IP:127.0.0.1" \
    -addext "basicConstraints=critical,CA:FALSE" -addext "extendedKeyUsage=serverAuth" \
    -keyout "$tmp/key.pem" -out "$tmp/cert.pem" 2>/dev/null
cat "$tmp/cert.pem" "$tmp/key.pem" > "$dir/$name.pem"
chmod 600 "$dir/$name.pem"
echo "wrote $dir/$name.pem"
