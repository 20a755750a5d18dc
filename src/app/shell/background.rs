//! Work that must not hold up the editor's frames (reading a file, exporting, decoding
//! pictures to import): on a thread of its own natively; on the web, which has one thread, as
//! a task of its own once the page has painted the frame that started it, so the window
//! saying what is under way shows first.

/// Runs `job` away from the frame that starts it; `job` says when it is done (it wakes the
/// editor, which polls for its result).
pub fn run_in_background(job: impl FnOnce() + Send + 'static) {
    #[cfg(not(target_arch = "wasm32"))]
    std::thread::spawn(job);
    #[cfg(target_arch = "wasm32")]
    wasm_bindgen_futures::spawn_local(async move {
        after_paint().await;
        job();
    });
}

/// Waits for a task of its own (a zero timeout): the browser paints between tasks.
#[cfg(target_arch = "wasm32")]
async fn after_paint() {
    let promise = js_sys::Promise::new(&mut |resolve, _reject| {
        if let Some(window) = web_sys::window() {
            let _ = window.set_timeout_with_callback(&resolve);
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}
