//! How the process's allocator hands memory back to the system.

/// Blocks of a megabyte or more are mapped on their own and unmapped when freed.
///
/// glibc raises its mmap threshold to the size of every mapped block it frees (up to
/// 32 MiB, `mallopt(3)`, "M_MMAP_THRESHOLD"), so after the first megabyte buffer of a large
/// seed is freed, the next ones come from the heap and stay in the process when freed: a
/// reduction of a 3 MB, 100,000-deep seed held 128 MiB resident for 113 MB of live data,
/// a campaign turn on it 104 for 101 (issue 37). A fixed threshold turns that off. Only
/// inputs of megabytes make such blocks, so small seeds pay nothing.
pub fn return_large_frees() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets an allocator parameter; it is called before any thread
    // is started, and a refused value (it returns 0) leaves glibc's default in place.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 20);
    }
}
