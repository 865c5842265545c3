//! `sno lease status`: who holds which partition of a namespace, read from the store that
//! `SNO_LEASE_URL` names (`sno_lease::status`). Read-only: nothing is created, renewed or freed.

use std::io::{self, Write};

use serde_json::json;
use sno_lease::{Holding, LeaseOptions, NamespaceStatus};

use crate::args::{LeaseStatusArgs, usage};
use crate::output::{escape, report, write_json};
use crate::status::{EXIT_FAILURE, EXIT_OK};

pub(crate) fn status(
    args: &LeaseStatusArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> io::Result<i32> {
    let command = ["sno".into(), "lease".into(), "status".into()];
    let Some(url) = std::env::var_os("SNO_LEASE_URL") else {
        let message =
            "SNO_LEASE_URL is not set: it names the store to read (postgres://… or redis://…)";
        return Ok(usage(err, &command, message));
    };
    let Some(url) = url.to_str() else {
        return Ok(usage(err, &command, "SNO_LEASE_URL is not valid UTF-8"));
    };
    let options = match &args.namespace {
        Some(ns) => {
            // A namespace given on the command line that no store takes is a usage error.
            let options = LeaseOptions::new(ns.as_str());
            if let Err(e) = options.validate() {
                return Ok(usage(err, &command, &format!("--namespace: {e}")));
            }
            Ok(options)
        }
        None => LeaseOptions::from_env(),
    };
    match options.and_then(|o| sno_lease::status(url, &o)) {
        Ok(status) if args.json => write_json(out, &as_json(&status))?,
        Ok(status) => write_text(out, &status)?,
        Err(e) => {
            report(out, err, &e.to_string())?;
            return Ok(EXIT_FAILURE);
        }
    }
    Ok(EXIT_OK)
}

/// Unix milliseconds as UTC text (`2026-12-05T01:23:45.678Z`), where the calendar holds them.
fn utc(ms: i64) -> Option<String> {
    let mut text = [0u8; sno_core::time::UTC_LEN];
    sno_core::time::format_utc_millis(ms, &mut text).map(str::to_owned)
}

/// A first line for the namespace, then one line per partition held: `name=value` pairs,
/// unknown values left out, every text escaped (a holder's name comes from the store).
fn write_text(out: &mut dyn Write, status: &NamespaceStatus) -> io::Result<()> {
    let mut line = format!(
        "namespace={} store={}",
        escape(&status.namespace),
        escape(&status.store)
    );
    if let Some(now) = utc(status.now_unix_ms) {
        line.push_str(&format!(" now={now}"));
    }
    writeln!(out, "{line} held={}", status.held.len())?;
    for h in &status.held {
        let mut line = format!("partition={}", h.partition);
        let mut put = |name: &str, value: Option<String>| {
            if let Some(v) = value {
                line.push_str(&format!(" {name}={}", escape(&v)));
            }
        };
        put("host", h.host().map(str::to_owned));
        put("pid", h.pid().map(|p| p.to_string()));
        put("program", h.program().map(str::to_owned));
        put("since", h.acquired_unix_ms.and_then(utc));
        put("renewed", h.renewed_unix_ms.and_then(utc));
        put(
            "expires_in_ms",
            Some(h.expires_in(status.now_unix_ms).as_millis().to_string()),
        );
        put("token", Some(h.token.to_string()));
        put("holder", Some(h.holder.clone()));
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// A number, or past 2^53 − 1 (where a double stops telling integers apart) its decimal text,
/// as every wide integer of the CLI's JSON.
fn json_u64(value: u64) -> serde_json::Value {
    if value < 1 << crate::output::JSON_NUMBER_BITS {
        json!(value)
    } else {
        json!(value.to_string())
    }
}

/// The status as one JSON object; times both as UTC text and as Unix milliseconds.
fn as_json(status: &NamespaceStatus) -> serde_json::Value {
    let held: Vec<serde_json::Value> = status
        .held
        .iter()
        .map(|h: &Holding| {
            json!({
                "partition": h.partition,
                "host": h.host(),
                "pid": h.pid(),
                "program": h.program(),
                "since": h.acquired_unix_ms.and_then(utc),
                "since_unix_ms": h.acquired_unix_ms,
                "renewed": h.renewed_unix_ms.and_then(utc),
                "renewed_unix_ms": h.renewed_unix_ms,
                "expires_in_ms": h.expires_in(status.now_unix_ms).as_millis() as u64,
                "expires_unix_ms": h.expires_unix_ms,
                "token": json_u64(h.token),
                "holder": h.holder,
            })
        })
        .collect();
    json!({
        "namespace": status.namespace,
        "store": status.store,
        "now": utc(status.now_unix_ms),
        "now_unix_ms": status.now_unix_ms,
        "held": held,
    })
}
