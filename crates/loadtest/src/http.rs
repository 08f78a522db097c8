//! A small HTTP/1.1 client for the server's JSON API: one connection per request
//! (`Connection: close`), optionally from a chosen local address, with the session cookie.

use std::net::{IpAddr, SocketAddr};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

/// Where the server is: its socket address and the `Host` header to send.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    /// The server's address.
    pub addr: SocketAddr,
    /// `host:port` as given (for the `Host` header).
    pub host: String,
}

impl Target {
    /// Read `http://host:port` (a trailing `/` or path is ignored); `host` may be a name, which
    /// is resolved once.
    pub async fn parse(url: &str) -> Result<Target, String> {
        let rest = url.strip_prefix("http://").ok_or_else(|| {
            format!("the server URL must start with http:// (got {url:?}); TLS is not supported")
        })?;
        let host = rest.split('/').next().unwrap_or_default();
        if host.is_empty() {
            return Err(format!("no host in the server URL {url:?}"));
        }
        let with_port = if host.contains(':') && !host.ends_with(']') {
            host.to_string()
        } else {
            format!("{host}:80")
        };
        let addr = tokio::net::lookup_host(with_port.as_str())
            .await
            .map_err(|e| format!("cannot resolve {host}: {e}"))?
            .next()
            .ok_or_else(|| format!("{host} has no address"))?;
        Ok(Target {
            addr,
            host: host.to_string(),
        })
    }

    /// The websocket URL, `ws://host/ws`.
    #[must_use]
    pub fn ws_url(&self) -> String {
        format!("ws://{}/ws", self.host)
    }
}

/// Open a TCP connection to `addr`, from the local address `src` when one is given (any
/// address of `127.0.0.0/8` works on loopback, which spreads the connections over many client
/// addresses and many ephemeral port ranges).
pub async fn connect(addr: SocketAddr, src: Option<IpAddr>) -> std::io::Result<TcpStream> {
    let sock = if addr.is_ipv4() {
        TcpSocket::new_v4()?
    } else {
        TcpSocket::new_v6()?
    };
    if let Some(ip) = src {
        sock.bind(SocketAddr::new(ip, 0))?;
    }
    let stream = sock.connect(addr).await?;
    stream.set_nodelay(true)?;
    Ok(stream)
}

/// An HTTP answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Response {
    /// The status code.
    pub status: u16,
    /// The `name=value` part of the session cookie, if the answer set one.
    pub cookie: Option<String>,
    /// The body.
    pub body: String,
}

/// `POST path` with a JSON body.
pub async fn post(
    target: &Target,
    src: Option<IpAddr>,
    path: &str,
    cookie: Option<&str>,
    body: &str,
) -> Result<Response, String> {
    request(target, src, "POST", path, cookie, body).await
}

/// `GET path`.
pub async fn get(
    target: &Target,
    src: Option<IpAddr>,
    path: &str,
    cookie: Option<&str>,
) -> Result<Response, String> {
    request(target, src, "GET", path, cookie, "").await
}

async fn request(
    target: &Target,
    src: Option<IpAddr>,
    method: &str,
    path: &str,
    cookie: Option<&str>,
    body: &str,
) -> Result<Response, String> {
    let mut stream = connect(target.addr, src)
        .await
        .map_err(|e| format!("cannot connect to {}: {e}", target.addr))?;
    let cookie_line = cookie.map_or(String::new(), |c| format!("Cookie: {c}\r\n"));
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n{cookie_line}\r\n{body}",
        target.host,
        body.len()
    );
    stream
        .write_all(req.as_bytes())
        .await
        .map_err(|e| format!("{method} {path}: {e}"))?;
    let mut raw = Vec::with_capacity(2048);
    stream
        .read_to_end(&mut raw)
        .await
        .map_err(|e| format!("{method} {path}: {e}"))?;
    parse_response(&raw).map_err(|e| format!("{method} {path}: {e}"))
}

/// Parse a whole HTTP/1.1 response (read until the server closed the connection).
pub fn parse_response(raw: &[u8]) -> Result<Response, String> {
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or("the answer has no header end")?;
    let head = std::str::from_utf8(&raw[..split]).map_err(|_| "the header is not UTF-8")?;
    let mut body = &raw[split + 4..];
    let mut lines = head.split("\r\n");
    let status_line = lines.next().unwrap_or_default();
    let status: u16 = status_line
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("bad status line {status_line:?}"))?;
    let mut cookie = None;
    let mut chunked = false;
    let mut length = None;
    for line in lines {
        let Some((name, value)) = line.split_once(':') else {
            continue;
        };
        let value = value.trim();
        if name.eq_ignore_ascii_case("set-cookie") {
            let pair = value.split(';').next().unwrap_or_default().trim();
            if pair.starts_with(fiveup_protocol::SESSION_COOKIE) && !pair.ends_with('=') {
                cookie = Some(pair.to_string());
            }
        } else if name.eq_ignore_ascii_case("transfer-encoding") {
            chunked = value.eq_ignore_ascii_case("chunked");
        } else if name.eq_ignore_ascii_case("content-length") {
            length = value.parse::<usize>().ok();
        }
    }
    let body = if chunked {
        dechunk(body)?
    } else {
        if let Some(n) = length {
            if body.len() < n {
                return Err(format!(
                    "the body is cut short ({} of {n} bytes)",
                    body.len()
                ));
            }
            body = &body[..n];
        }
        body.to_vec()
    };
    let body = String::from_utf8(body).map_err(|_| "the body is not UTF-8")?;
    Ok(Response {
        status,
        cookie,
        body,
    })
}

fn dechunk(mut rest: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    loop {
        let eol = rest
            .windows(2)
            .position(|w| w == b"\r\n")
            .ok_or("a chunk has no size line")?;
        let size_text = std::str::from_utf8(&rest[..eol]).map_err(|_| "bad chunk size")?;
        let size_text = size_text.split(';').next().unwrap_or_default().trim();
        let size = usize::from_str_radix(size_text, 16)
            .map_err(|_| format!("bad chunk size {size_text:?}"))?;
        rest = &rest[eol + 2..];
        if size == 0 {
            return Ok(out);
        }
        if rest.len() < size + 2 {
            return Err("a chunk is cut short".to_string());
        }
        out.extend_from_slice(&rest[..size]);
        rest = &rest[size + 2..];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_response_with_a_length_and_a_cookie() {
        let raw = b"HTTP/1.1 201 Created\r\ncontent-type: application/json\r\n\
            set-cookie: fiveup_session=abc123; HttpOnly; SameSite=Lax; Path=/\r\n\
            content-length: 7\r\n\r\n{\"a\":1}";
        let r = parse_response(raw).unwrap();
        assert_eq!(r.status, 201);
        assert_eq!(r.cookie.as_deref(), Some("fiveup_session=abc123"));
        assert_eq!(r.body, "{\"a\":1}");
    }

    #[test]
    fn reads_a_chunked_response_and_ignores_a_cleared_cookie() {
        let raw = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\
            Set-Cookie: fiveup_session=; Max-Age=0\r\n\r\n4\r\n{\"a\"\r\n3\r\n:1}\r\n0\r\n\r\n";
        let r = parse_response(raw).unwrap();
        assert_eq!(r.status, 200);
        assert_eq!(r.cookie, None);
        assert_eq!(r.body, "{\"a\":1}");
    }

    #[test]
    fn refuses_truncated_answers() {
        assert!(parse_response(b"HTTP/1.1 200 OK\r\n").is_err());
        assert!(parse_response(b"HTTP/1.1 200 OK\r\ncontent-length: 9\r\n\r\n{}").is_err());
        assert!(parse_response(b"garbage\r\n\r\n").is_err());
    }

    #[tokio::test]
    async fn parses_server_urls() {
        let t = Target::parse("http://127.0.0.1:8080/").await.unwrap();
        assert_eq!(t.addr, "127.0.0.1:8080".parse().unwrap());
        assert_eq!(t.ws_url(), "ws://127.0.0.1:8080/ws");
        assert!(Target::parse("https://127.0.0.1:8080").await.is_err());
        assert!(Target::parse("http:///x").await.is_err());
    }
}
