//! The server's stdio loop: lines from stdin are screened ([`super::wire`]) before
//! the SDK sees them, and the SDK's replies and the screen's own answers go out
//! through one writer.

use rmcp::ServiceExt;

use incident_build::error::{Error, Result};

use super::wire::{self, screen, Screened};
use super::Library;

impl Library {
    /// Runs the server on stdin and stdout until stdin closes. Lines are screened
    /// first ([`wire::screen`]): what the SDK would end the session on, or answer with the
    /// wrong code, is answered here.
    pub fn serve_stdio(self) -> Result<()> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| Error::msg(format!("starting the runtime: {e}")))?;
        runtime.block_on(async move {
            use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
            // Lines that are not JSON get a JSON-RPC parse error here; the SDK sees
            // only the others. Both streams of replies go out through one writer.
            let (to_server, server_in) = tokio::io::duplex(1 << 16);
            let (server_out, from_server) = tokio::io::duplex(1 << 16);
            let (errors_tx, mut errors_rx) = tokio::sync::mpsc::unbounded_channel::<String>();
            let reader = tokio::spawn(async move {
                let mut to_server = to_server;
                let mut input = BufReader::new(tokio::io::stdin());
                let mut initialized = false;
                let mut raw = Vec::new();
                loop {
                    raw.clear();
                    match wire::read_line(&mut input, &mut raw, wire::MAX_MESSAGE).await {
                        Ok(wire::Line::End) | Err(_) => break,
                        Ok(wire::Line::Whole) => {}
                        Ok(wire::Line::TooLong) => {
                            let _ = errors_tx.send(wire::too_long(&raw).to_string());
                            continue;
                        }
                    }
                    // Bytes, not text: a line that is not UTF-8 gets an error and the
                    // session goes on.
                    let line = String::from_utf8_lossy(&raw);
                    let line = line.trim();
                    if line.is_empty() {
                        continue;
                    }
                    match screen(line, std::str::from_utf8(&raw).is_ok(), &mut initialized) {
                        Screened::Forward => {
                            if to_server.write_all(format!("{line}\n").as_bytes()).await.is_err() {
                                break;
                            }
                        }
                        Screened::Answer(reply) => {
                            let _ = errors_tx.send(reply.to_string());
                        }
                        Screened::Drop => {}
                    }
                }
                // stdin closed: closing the server's input ends the session.
                let _ = to_server.shutdown().await;
            });
            let writer = tokio::spawn(async move {
                let mut out = tokio::io::stdout();
                let mut replies = BufReader::new(from_server).lines();
                loop {
                    tokio::select! {
                        line = replies.next_line() => match line {
                            Ok(Some(line)) => { let _ = out.write_all(format!("{line}\n").as_bytes()).await; let _ = out.flush().await; }
                            _ => break,
                        },
                        Some(err) = errors_rx.recv() => { let _ = out.write_all(format!("{err}\n").as_bytes()).await; let _ = out.flush().await; }
                    }
                }
                // Answers screened out after the SDK's last reply still go out.
                while let Ok(err) = errors_rx.try_recv() {
                    let _ = out.write_all(format!("{err}\n").as_bytes()).await;
                }
                let _ = out.flush().await;
            });
            let running = self.serve((server_in, server_out)).await.map_err(|e| Error::msg(format!("MCP initialisation failed: {e}")))?;
            running.waiting().await.map_err(|e| Error::msg(format!("MCP server stopped: {e}")))?;
            reader.abort();
            let _ = writer.await;
            Ok(())
        })
    }
}
