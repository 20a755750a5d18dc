//! Retime: the command line on real files, refusals, and the edit command's undo.

use super::{common::sprat, copy_of, durations, kfm_copy, load, out_folder, text};
use sprat::edit::retime::Retime;
use sprat::edit::scope::FrameScope;
use sprat::edit::{History, Selection};
use sprat::model::FrameDuration;
use sprat::tools::retime::{Ratio, RetimeChange};

fn ticks(durations: &[FrameDuration]) -> Vec<u32> {
    durations
        .iter()
        .map(|d| match d {
            FrameDuration::Ticks(t) => *t,
            other => panic!("not ticks: {other}"),
        })
        .collect()
}

#[test]
fn kfm_standing_in_two_thirds_of_the_time_keeps_its_total_without_drift() {
    let (dir, def) = kfm_copy();
    // Read first: the output's .def names the same kfm.air, which the save rewrites beside it.
    let original = load(&def);
    let out = out_folder(&dir).join("fast.def");
    let (code, stdout, stderr) = sprat(&[
        "retime",
        text(&def),
        "--sequence",
        "0",
        "--scale",
        "2/3",
        "-o",
        text(&out),
    ]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        stdout.contains("largest per-frame rounding error"),
        "{stdout}"
    );
    let before = ticks(&durations(&original, "0"));
    let after = ticks(&durations(&load(&out), "0"));
    assert_eq!(before, [10, 7, 7, 7, 7, 45, 7, 7, 7, 7, 40]);
    // 151 ticks × 2/3 = 100.67: the total is the nearest whole tick, and at every frame the
    // running total is within half a tick of the exact one.
    assert_eq!(after.iter().sum::<u32>(), 101);
    let (mut exact, mut rounded) = (0.0, 0.0);
    for (old, new) in before.iter().zip(&after) {
        exact += *old as f64 * 2.0 / 3.0;
        rounded += *new as f64;
        assert!((exact - rounded).abs() <= 0.5 + 1e-9, "{after:?}");
    }
    // Other actions are untouched.
    assert_eq!(durations(&original, "5"), durations(&load(&out), "5"));
}

#[test]
fn kfm_at_seven_fps_alternates_eight_and_nine_ticks() {
    let (dir, def) = kfm_copy();
    let out = out_folder(&dir).join("seven.def");
    let (code, stdout, stderr) = sprat(&[
        "retime",
        text(&def),
        "-s",
        "0",
        "--fps",
        "7",
        "-o",
        text(&out),
    ]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let after = ticks(&durations(&load(&out), "0"));
    assert!(after.iter().all(|t| *t == 8 || *t == 9), "{after:?}");
    // 11 frames at 60/7 ticks = 94.29 ticks.
    assert_eq!(after.iter().sum::<u32>(), 94);
}

#[test]
fn an_aseprite_file_fits_a_total_in_whole_milliseconds() {
    let dir = copy_of("aseprite", &["layers_and_tags.aseprite"]);
    let input = dir.path().join("layers_and_tags.aseprite");
    let out = dir.path().join("fit.aseprite");
    let doc = load(&input);
    let names: Vec<String> = doc.sequences().iter().map(|s| s.name.clone()).collect();
    let (code, stdout, stderr) =
        sprat(&["retime", text(&input), "--total", "1000", "-o", text(&out)]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let after = load(&out);
    for name in &names {
        let millis: Vec<u32> = durations(&after, name)
            .iter()
            .map(|d| match d {
                FrameDuration::Millis(ms) => *ms,
                other => panic!("{other}"),
            })
            .collect();
        // A frame two tags share is retimed with the first tag; every tag of its own frames
        // lasts the second exactly.
        let shared = doc.sequences().iter().any(|other| {
            other.name != *name
                && other.directions[0].frames.iter().any(|f| {
                    doc.sequence_by_name(name).unwrap().directions[0]
                        .frames
                        .contains(f)
                })
        });
        if !shared {
            assert_eq!(millis.iter().sum::<u32>(), 1000, "{name}: {millis:?}");
        }
    }
}

#[test]
fn a_solarus_animation_keeps_one_delay() {
    let folder = "solarus/lua-1.x/zsdx/sprites/hero";
    let dir = copy_of(folder, &["tunic1.dat"]);
    let input = dir.path().join("tunic1.dat");
    let out = dir.path().join("fast.dat");
    // Only the sprite is copied, not its sheets: the missing pictures are errors to allow.
    let (code, stdout, stderr) = sprat(&[
        "retime",
        text(&input),
        "--fps",
        "12",
        "--allow-errors",
        "-o",
        text(&out),
    ]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let after = load(&out);
    let mut checked = 0;
    for sequence in after.sequences() {
        for d in 0..sequence.directions.len() {
            for frame in after.direction_frames(sequence, d) {
                match frame.duration {
                    FrameDuration::Forever => {}
                    other => {
                        assert_eq!(other, FrameDuration::Millis(83), "{}", sequence.name);
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked > 10);
}

#[test]
fn an_output_beside_its_input_never_replaces_the_inputs_own_files() {
    let (dir, def) = kfm_copy();
    let air = dir.path().join("kfm.air");
    let before = std::fs::read(&air).unwrap();
    // other.def names kfm.air, as kfm.def does: writing it here would rewrite the input's.
    let beside = dir.path().join("other.def");
    let (code, stdout, stderr) =
        sprat(&["retime", text(&def), "--scale", "2", "-o", text(&beside)]);
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert!(
        stderr.contains("kfm.air, which exists with other content"),
        "{stderr}"
    );
    assert!(stderr.contains("nothing written"), "{stderr}");
    assert!(!beside.exists());
    assert_eq!(std::fs::read(&air).unwrap(), before);
    // --force says the user means it: kfm.air is rewritten along with the new definition.
    let (code, stdout, stderr) = sprat(&[
        "retime",
        text(&def),
        "--scale",
        "2",
        "-o",
        text(&beside),
        "--force",
    ]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert_ne!(std::fs::read(&air).unwrap(), before);
}

#[test]
fn bad_values_and_unknown_sequences_write_nothing() {
    let (dir, def) = kfm_copy();
    let out = out_folder(&dir).join("out.def");
    let cases: [(&[&str], &str); 6] = [
        (&["--fps", "0"], "zero"),
        (&["--scale", "-2"], "negative"),
        (&["--scale", "fast"], "not a number"),
        (&["--total", "1"], "too short"),
        (&["--fps", "1000"], "less than one"),
        (
            &["--sequence", "nope", "--scale", "2"],
            "no sequence named \"nope\"",
        ),
    ];
    for (args, said) in cases {
        let mut argv = vec!["retime", text(&def)];
        argv.extend_from_slice(args);
        argv.extend_from_slice(&["-o", text(&out)]);
        let (code, stdout, stderr) = sprat(&argv);
        assert_eq!(code, 1, "{args:?}: {stdout}{stderr}");
        assert!(stderr.contains(said), "{args:?}: {stderr}");
        assert!(stderr.contains("nothing written"), "{args:?}: {stderr}");
        assert!(!out.exists(), "{args:?} wrote a file");
    }
    // The input is not overwritten without --force.
    let before = std::fs::read(dir.path().join("kfm.air")).unwrap();
    let (code, _, stderr) = sprat(&["retime", text(&def), "--scale", "2", "-o", text(&def)]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("--force"), "{stderr}");
    assert_eq!(std::fs::read(dir.path().join("kfm.air")).unwrap(), before);
}

#[test]
fn selected_frames_are_one_undo_step_and_an_empty_selection_is_refused() {
    let (_dir, def) = kfm_copy();
    let mut doc = load(&def);
    let original = doc.clone();
    let id = doc.sequence_by_name("0").unwrap().id;
    let mut history = History::new();
    let retime = |positions: Vec<usize>| Retime {
        scope: FrameScope::Frames {
            sequence: id,
            direction: 0,
            positions,
        },
        change: RetimeChange::UnitsPerFrame(5),
        per_frame_durations: true,
    };
    let refused = history
        .apply(&mut doc, &Selection::none(), &retime(vec![]), None)
        .unwrap_err();
    assert!(
        refused.message.contains("no frame is selected"),
        "{refused}"
    );
    assert_eq!(doc, original);
    let plan = retime(vec![1, 5]).plan(&doc).unwrap();
    assert_eq!(plan.frames.len(), 2);
    assert_eq!(plan.largest_error().unwrap().error_units, 0.0);
    history
        .apply(&mut doc, &Selection::none(), &retime(vec![1, 5]), None)
        .unwrap();
    assert_eq!(
        ticks(&durations(&doc, "0")),
        [10, 5, 7, 7, 7, 5, 7, 7, 7, 7, 40]
    );
    history.undo(&mut doc);
    assert_eq!(doc, original);
    // A format with one delay per sequence refuses part of a sequence.
    let one_delay = Retime {
        per_frame_durations: false,
        ..retime(vec![1])
    };
    let refused = one_delay.plan(&doc).unwrap_err();
    assert!(refused.message.contains("whole sequence"), "{refused}");
    // Zero frames per second is not a value the library takes either.
    assert!(Ratio::parse_positive("0").is_err());
}
