//! AFL++ custom mutator API (docs/custom_mutators.md of AFL++): C ABI glue around
//! `smtstorm::harness::afl::AflMutator`.
use smtstorm::harness::afl::AflMutator;
use std::os::raw::{c_char, c_uint, c_void};

/// # Safety
/// Called by AFL++ once; the returned pointer is passed back to the other functions.
#[no_mangle]
pub unsafe extern "C" fn afl_custom_init(_afl: *mut c_void, seed: c_uint) -> *mut c_void {
    Box::into_raw(Box::new(AflMutator::new(seed))) as *mut c_void
}

/// # Safety
/// `data` comes from `afl_custom_init`; `buf`/`add_buf` are valid for their sizes.
#[no_mangle]
pub unsafe extern "C" fn afl_custom_fuzz(
    data: *mut c_void,
    buf: *mut u8,
    buf_size: usize,
    out_buf: *mut *mut u8,
    add_buf: *mut u8,
    add_buf_size: usize,
    max_size: usize,
) -> usize {
    let m = &mut *(data as *mut AflMutator);
    let input = if buf.is_null() { &[][..] } else { std::slice::from_raw_parts(buf, buf_size) };
    let add = if add_buf.is_null() { &[][..] } else { std::slice::from_raw_parts(add_buf, add_buf_size) };
    let n = m.fuzz(input, add, max_size).len();
    *out_buf = m.out_ptr();
    n
}

/// # Safety
/// `data` comes from `afl_custom_init`.
#[no_mangle]
pub unsafe extern "C" fn afl_custom_describe(data: *mut c_void, max_description_len: usize) -> *const c_char {
    let m = &mut *(data as *mut AflMutator);
    m.describe(max_description_len).as_ptr()
}

/// # Safety
/// `data` comes from `afl_custom_init` and is not used afterwards.
#[no_mangle]
pub unsafe extern "C" fn afl_custom_deinit(data: *mut c_void) {
    drop(Box::from_raw(data as *mut AflMutator));
}
