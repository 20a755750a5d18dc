//! The terminal of a Windows program. `sprat.exe` is a window program (the `windows`
//! subsystem), so that the editor started from Explorer opens no console window beside its
//! own; such a program has no console of its own, so the command line, started from
//! `cmd.exe` or PowerShell, joins the console it was started from to print there. Output
//! redirected to a file or a pipe needs nothing: those handles are inherited as they are.

/// Joins the console of the program that started this one (a terminal), when the standard
/// output is not redirected already; started from Explorer there is none, and nothing
/// changes.
pub fn attach_to_parent() {
    /// `AttachConsole`'s "the parent's console".
    const ATTACH_PARENT_PROCESS: u32 = u32::MAX;
    /// `GetStdHandle`'s name for the standard output.
    const STD_OUTPUT_HANDLE: u32 = -11i32 as u32;
    #[link(name = "kernel32")]
    unsafe extern "system" {
        fn AttachConsole(process: u32) -> i32;
        fn GetStdHandle(which: u32) -> *mut std::ffi::c_void;
    }
    // SAFETY: both calls take plain integers and have no preconditions; a failed attach (no
    // parent console) changes nothing.
    unsafe {
        let output = GetStdHandle(STD_OUTPUT_HANDLE);
        // INVALID_HANDLE_VALUE is -1; a window program started from a terminal has none (0).
        if output.is_null() || output as isize == -1 {
            AttachConsole(ATTACH_PARENT_PROCESS);
        }
    }
}
