//! The module's allocator: blocks of power-of-two sizes, taken from the end of the heap (memory
//! grown by whole pages as it runs out) and kept on one free list per size after they are
//! freed, for the next allocation of that size. A module allocates little and in few sizes (its
//! I/O buffer, the generators JavaScript holds, a batch's texts), so this is all it needs; std's
//! dlmalloc would be most of a small module (docs/wasm.md, "Sizes"). Freed memory is reused
//! for blocks of its own size only, and never returned to the host (WebAssembly memory cannot
//! shrink).

use core::alloc::{GlobalAlloc, Layout};
use core::arch::wasm32;
use core::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// Bytes in a WebAssembly page.
const PAGE: usize = 65_536;
/// The smallest block: room for the free list's link.
const MIN_BLOCK: usize = core::mem::size_of::<usize>();
/// Block sizes: 2^0 ..= 2^31 bytes (the smallest ones unused).
const CLASSES: usize = usize::BITS as usize;

/// The heap's allocator (one instance: the global allocator).
struct Heap {
    /// The end of the memory handed out so far (0: the heap's start, not yet read).
    end: AtomicUsize,
    /// The first free block of each size (0: none); each free block holds the next one's
    /// address. Atomics only for `static` interior mutability: the module has one thread
    /// (wasm32-unknown-unknown without the atomics feature), where they are plain loads and
    /// stores.
    free: [AtomicUsize; CLASSES],
}

#[global_allocator]
static HEAP: Heap = Heap {
    end: AtomicUsize::new(0),
    free: [const { AtomicUsize::new(0) }; CLASSES],
};

unsafe extern "C" {
    /// Where the heap starts: past the data and the stack (set by the linker).
    static __heap_base: u8;
}

/// The size class of `layout`: the exponent of its block's size, or `None` past 2^31.
fn class(layout: Layout) -> Option<usize> {
    let size = layout.size().max(layout.align()).max(MIN_BLOCK);
    let size = size.checked_next_power_of_two()?;
    Some(size.trailing_zeros() as usize)
}

// SAFETY: `alloc` returns null or a block of at least `layout.size()` bytes aligned to
// `layout.align()` that no other live allocation overlaps (a block is on a free list only
// after `dealloc`, and taken off it before it is handed out again; `realloc` keeps a block
// whose class holds the new size); the module has one thread.
unsafe impl GlobalAlloc for Heap {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let Some((class, list)) = class(layout).and_then(|c| Some((c, self.free.get(c)?))) else {
            return core::ptr::null_mut();
        };
        let head = list.load(Relaxed);
        if head != 0 && head % layout.align() == 0 {
            // SAFETY: a free block of this class holds the address of the next one in its first
            // word (written by `dealloc`, aligned: every block is at least word-aligned).
            let next = unsafe { *(head as *const usize) };
            list.store(next, Relaxed);
            return head as *mut u8;
        }
        let mut end = self.end.load(Relaxed);
        if end == 0 {
            end = (&raw const __heap_base) as usize;
        }
        // Aligned to the block's own size up to a page: a freed block then fits any later
        // layout of its class whose alignment is at most that.
        let align = (1usize << class).min(PAGE).max(layout.align());
        let Some(start) = end.checked_next_multiple_of(align) else {
            return core::ptr::null_mut();
        };
        let Some(new_end) = start.checked_add(1 << class) else {
            return core::ptr::null_mut();
        };
        let have = wasm32::memory_size(0) * PAGE;
        if new_end > have && wasm32::memory_grow(0, (new_end - have).div_ceil(PAGE)) == usize::MAX {
            return core::ptr::null_mut();
        }
        self.end.store(new_end, Relaxed);
        start as *mut u8
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // `layout` is the one `ptr` was allocated with (the caller's contract): its class is
        // the block's.
        if let Some(list) = class(layout).and_then(|c| self.free.get(c)) {
            // SAFETY: the block is ours again and at least a word long and word-aligned.
            unsafe { *(ptr as *mut usize) = list.load(Relaxed) };
            list.store(ptr as usize, Relaxed);
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `new_size`, rounded up to `layout.align()`, does not overflow (the caller's
        // contract), so this is a valid layout.
        let new = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        if class(new) == class(layout) {
            // The block already holds `new_size` bytes.
            return ptr;
        }
        // SAFETY: `new` is non-zero-sized as `layout` is; then both blocks are valid for the
        // bytes copied, and `ptr` was allocated with `layout` (the caller's contract).
        unsafe {
            let to = self.alloc(new);
            if !to.is_null() {
                core::ptr::copy_nonoverlapping(ptr, to, layout.size().min(new_size));
                self.dealloc(ptr, layout);
            }
            to
        }
    }
}
