//! Running `check` and `info` over many files: expanding folders, reading files on every core,
//! and printing each file's report in the order the files were given.

use crate::formats::registry;
use std::collections::BTreeMap;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

/// The files named on the command line: files as given, folders expanded (recursively) to
/// the files whose extension some format reads, in name order. Symbolic links to folders are
/// not followed, so a link loop cannot make the walk endless; other links are read, broken
/// ones included (reading them fails with a sentence).
#[derive(Debug, Default)]
pub struct Inputs {
    /// The files, in order.
    pub files: Vec<PathBuf>,
    /// True when there is more than one file or a folder was named: a summary line is due.
    pub several: bool,
    /// Problems with the arguments themselves (a folder that cannot be listed, or that holds
    /// no file Sprat reads).
    pub problems: Vec<String>,
}

/// Expands `arguments` into the files to read.
pub fn inputs(arguments: &[PathBuf]) -> Inputs {
    let mut found = Inputs {
        several: arguments.len() > 1,
        ..Inputs::default()
    };
    for argument in arguments {
        if !argument.is_dir() {
            found.files.push(argument.clone());
            continue;
        }
        found.several = true;
        let before = found.files.len();
        walk(argument, &mut found);
        if found.files.len() == before {
            found.problems.push(format!(
                "{}: no file of a format Sprat reads in this folder",
                argument.display()
            ));
        }
    }
    found
}

fn walk(folder: &Path, found: &mut Inputs) {
    let entries = match std::fs::read_dir(folder) {
        Ok(entries) => entries,
        Err(e) => {
            found
                .problems
                .push(format!("{}: cannot list the folder: {e}", folder.display()));
            return;
        }
    };
    let mut entries: Vec<(PathBuf, std::fs::FileType)> = entries
        .flatten()
        .filter_map(|e| Some((e.path(), e.file_type().ok()?)))
        .collect();
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    for (path, kind) in entries {
        if kind.is_dir() {
            walk(&path, found);
        } else if registry().is_known_document(&path)
            && (kind.is_file() || (kind.is_symlink() && !path.is_dir()))
        {
            // A link whose target is missing (or not a regular file) is read all the same, so
            // its read error is reported rather than the file left out without a word.
            found.files.push(path);
        }
    }
}

/// How many files to read at once: `--jobs`, else one per core.
pub fn jobs(requested: Option<usize>) -> usize {
    requested
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1)
}

/// The threads one command works on: `jobs` of them, for its files and for the sprites and
/// frames inside each file alike, so `--jobs N` bounds both. `None` when the system would not
/// start them.
pub fn thread_pool(jobs: usize) -> Option<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.max(1))
        .thread_name(|i| format!("sprat-worker-{i}"))
        .build()
        .ok()
}

/// Runs `work` on every item on `jobs` threads and hands each result to `emit` in the items'
/// order, as soon as it and every result before it are ready. When `emit` fails (the output
/// was closed), no further item is started and the error is returned.
///
/// The `jobs` threads are a pool that also runs the work an item splits up itself (the
/// sprites of one big file): a thread that finds no item left takes up that work, so one
/// file alone keeps every thread busy, and never more than `jobs` threads work.
pub fn run_in_order<T: Sync, R: Send>(
    items: &[T],
    jobs: usize,
    work: impl Fn(&T) -> R + Sync,
    mut emit: impl FnMut(R) -> io::Result<()>,
) -> io::Result<()> {
    let Some(pool) = thread_pool(jobs) else {
        for item in items {
            emit(work(item))?;
        }
        return Ok(());
    };
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (sender, receiver) = mpsc::channel::<(usize, R)>();
    pool.in_place_scope(|scope| {
        for _ in 0..jobs.min(items.len()) {
            let sender = sender.clone();
            let (next, stop, work) = (&next, &stop, &work);
            scope.spawn(move |_| {
                while !stop.load(Ordering::Relaxed) {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let Some(item) = items.get(index) else { break };
                    if sender.send((index, work(item))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        // This thread only prints. Results arrive in any order; each waits here until those
        // before it are printed.
        let mut waiting: BTreeMap<usize, R> = BTreeMap::new();
        let mut printed = 0;
        for (index, result) in &receiver {
            waiting.insert(index, result);
            while let Some(result) = waiting.remove(&printed) {
                if let Err(e) = emit(result) {
                    stop.store(true, Ordering::Relaxed);
                    return Err(e);
                }
                printed += 1;
            }
        }
        Ok(())
    })
}

/// What one file's command printed, kept until its turn comes.
#[derive(Debug, Default)]
pub struct FileOutput {
    /// For standard output (with `--json`: the file's JSON object).
    pub out: String,
    /// For standard error.
    pub err: String,
    /// For the summary line.
    pub outcome: Option<Outcome>,
    /// True when the file makes the run fail (exit 1).
    pub failed: bool,
}

/// Runs `per_file` over every file the arguments name, `--jobs` at a time, printing each
/// file's output in the arguments' order, then the summary (a line, or the end of the JSON
/// document). Exit code 1 when any file failed or an argument named nothing to read.
pub fn run(
    command: &str,
    arguments: &[PathBuf],
    batch: &super::BatchArgs,
    per_file: impl Fn(&Path) -> FileOutput + Sync,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> io::Result<i32> {
    let inputs = inputs(arguments);
    print_problems(&inputs.problems, err)?;
    if batch.json {
        write!(out, "{}", super::json::header(command))?;
    }
    let mut tally = Tally::default();
    let mut failed = !inputs.problems.is_empty();
    run_in_order(
        &inputs.files,
        jobs(batch.jobs),
        |p| per_file(p),
        |file| {
            if batch.json && tally.files > 0 {
                out.write_all(b",\n")?;
            }
            out.write_all(file.out.as_bytes())?;
            err.write_all(file.err.as_bytes())?;
            if let Some(outcome) = file.outcome {
                tally.add(outcome);
            }
            failed |= file.failed;
            Ok(())
        },
    )?;
    if batch.json {
        let summary = serde_json::to_string(&tally).map_err(io::Error::other)?;
        writeln!(out, "],\"summary\":{summary}}}")?;
    } else if inputs.several {
        writeln!(out, "{}", tally.line())?;
    }
    out.flush()?;
    Ok(i32::from(failed))
}

/// How a file came out, for the summary line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Read without errors or warnings.
    Clean,
    /// Read with warnings only.
    Warnings,
    /// Read with errors, or not readable at all.
    Errors,
}

impl Outcome {
    /// The outcome of a file with these counts.
    pub fn of(errors: usize, warnings: usize) -> Outcome {
        match (errors, warnings) {
            (0, 0) => Outcome::Clean,
            (0, _) => Outcome::Warnings,
            _ => Outcome::Errors,
        }
    }
}

/// The outcomes so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Tally {
    /// Files read or tried.
    pub files: usize,
    /// Files without errors or warnings.
    pub clean: usize,
    /// Files with warnings but no errors.
    pub with_warnings: usize,
    /// Files with errors (those that could not be read included).
    pub with_errors: usize,
}

impl Tally {
    /// Counts one more file.
    pub fn add(&mut self, outcome: Outcome) {
        self.files += 1;
        match outcome {
            Outcome::Clean => self.clean += 1,
            Outcome::Warnings => self.with_warnings += 1,
            Outcome::Errors => self.with_errors += 1,
        }
    }

    /// "1,204 files: 1,190 clean, 11 with warnings, 3 with errors" (parts that are zero left
    /// out, but never all of them).
    pub fn line(&self) -> String {
        let noun = if self.files == 1 { "file" } else { "files" };
        let mut parts = Vec::new();
        if self.clean > 0 || self.files == 0 {
            parts.push(format!("{} clean", thousands(self.clean)));
        }
        if self.with_warnings > 0 {
            parts.push(format!("{} with warnings", thousands(self.with_warnings)));
        }
        if self.with_errors > 0 {
            parts.push(format!("{} with errors", thousands(self.with_errors)));
        }
        format!("{} {noun}: {}", thousands(self.files), parts.join(", "))
    }
}

/// `1204` as "1,204".
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Writes each argument problem to `err` as `sprat: …`.
pub fn print_problems(problems: &[String], err: &mut dyn Write) -> io::Result<()> {
    for problem in problems {
        writeln!(err, "sprat: {problem}")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_are_separated() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1204), "1,204");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }

    #[test]
    fn the_summary_names_only_what_happened() {
        let mut tally = Tally::default();
        for outcome in [Outcome::Clean, Outcome::Clean, Outcome::Errors] {
            tally.add(outcome);
        }
        assert_eq!(tally.line(), "3 files: 2 clean, 1 with errors");
        tally.add(Outcome::Warnings);
        assert_eq!(
            tally.line(),
            "4 files: 2 clean, 1 with warnings, 1 with errors"
        );
    }

    #[test]
    fn results_come_out_in_input_order_whatever_finishes_first() {
        let items: Vec<u64> = (0..40).collect();
        let mut seen = Vec::new();
        run_in_order(
            &items,
            4,
            |&i| {
                // Early items take longest, so they finish last.
                std::thread::sleep(std::time::Duration::from_millis(40 - i));
                i
            },
            |i| {
                seen.push(i);
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(seen, items);
    }

    #[test]
    fn a_failing_output_stops_the_work() {
        let items: Vec<usize> = (0..10_000).collect();
        let done = AtomicUsize::new(0);
        let result = run_in_order(
            &items,
            2,
            |&i| {
                done.fetch_add(1, Ordering::Relaxed);
                std::thread::sleep(std::time::Duration::from_millis(1));
                i
            },
            |_| Err(io::Error::from(io::ErrorKind::BrokenPipe)),
        );
        assert_eq!(result.unwrap_err().kind(), io::ErrorKind::BrokenPipe);
        assert!(done.load(Ordering::Relaxed) < 100);
    }
}
