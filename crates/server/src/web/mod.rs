//! The web layer: how clients reach the tables.
//!
//! - [`listen`]: the accept loop, its timeouts and connection caps, the client's address;
//! - [`api`]: the HTTP API (every endpoint is in `docs/protocol.md`);
//! - [`ws`]: the websocket, one per client, following the lobby or one table;
//! - [`assets`]: the browser client's files, embedded in the binary;
//! - [`relay`]: handing a client on to the instance that runs its table.

pub mod api;
pub mod assets;
pub mod listen;
pub mod relay;
pub mod ws;
