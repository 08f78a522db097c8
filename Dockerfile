# The fiveup server as a small container image: the `fiveup` binary on a distroless base
# (glibc and CA certificates, no shell, no package manager), run as a non-root user, with the
# SQLite database on a volume. See docs/deploy.md, "Containers".
#
#     docker build -t fiveup .
#     docker run -p 8080:8080 -v fiveup-data:/data fiveup
#
# The same image runs the instances of the multi-instance setup (deploy/compose.yaml).

FROM rust:1.95-slim-bookworm AS build
WORKDIR /src
COPY . .
# --locked: exactly the dependency versions of Cargo.lock.
RUN cargo build --release --locked -p fiveup && strip target/release/fiveup && mkdir /empty

FROM gcr.io/distroless/cc-debian12:nonroot
COPY --from=build /src/target/release/fiveup /usr/local/bin/fiveup
# distroless's "nonroot" user (65532); /data belongs to it, so a fresh named volume does too.
COPY --from=build --chown=65532:65532 /empty /data
USER 65532:65532
VOLUME ["/data"]
EXPOSE 8080
ENTRYPOINT ["/usr/local/bin/fiveup"]
# Every interface inside the container; the SQLite file on the volume.
CMD ["serve", "--bind", "0.0.0.0:8080", "--database", "/data/fiveup.db"]
