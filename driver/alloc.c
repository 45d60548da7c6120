// SPDX-License-Identifier: GPL-2.0-only
/*
 * binderc: the receive-buffer allocator.
 *
 * Each proc maps (read-only, at most 4 MiB, once) an area that only the
 * kernel writes.  A transaction's buffer is carved from it and the sender's
 * data is copied once, straight from the sender's user memory into the
 * receiver's pages.  Pages are allocated when a buffer first covers them and
 * are served to the mapping by the fault handler; a page not allocated
 * (never, or given back) faults with SIGBUS, like mainline's.
 *
 * Pages are given back under memory pressure, as mainline does: a page no
 * allocated buffer covers any more is marked unused when its last buffer
 * is freed (it stays allocated and mapped, so a new buffer there costs
 * nothing), and in use again when a buffer covers it.  Unlike mainline,
 * whose pages go on and off a global list_lru one by one (a lock and a
 * list operation per page and per call, 54,000 instructions for a 1 MiB
 * call here), marking is a bit in a per-proc bitmap, set or cleared a
 * word (64 pages) at a time, and a per-proc count; the call path touches
 * nothing global and no per-page loop (another 6,000 instructions for a
 * 1 MiB call when the marks were one flag per page).  The shrinker counts and finds the pages by
 * walking the mapped areas (one global list, in turn), zaps unused pages
 * from the mapping and frees them; it
 * never sees a page in use, so copies into and out of buffers (which the
 * caller owns) read alloc->pages without the mutex.  The fault handler
 * takes the mutex: the shrinker may empty any slot it has not got.  A
 * page the shrinker zapped but something else still holds (a fault in
 * flight, a get_user_pages() pin) stays marked unused for a later scan,
 * so a slot is never refilled while an old page could still be mapped.
 *
 * Buffers sit on one address-ordered list (free and allocated), which
 * gives each its size (up to the next one) and its neighbours for merging.
 * Each is also in one of two rb-trees through the same rb_node: allocated
 * buffers by address (BC_FREE_BUFFER's lookup), free ones by size and then
 * address, so the best fit (the smallest free buffer that is big enough,
 * the lowest-addressed of those) is found in O(log n) however many buffers
 * are outstanding.  A freed buffer is merged with free neighbours at once,
 * so two free buffers are never adjacent.  Sizes follow mainline so the
 * same transactions fit: each buffer is the 8-byte aligned sum of data,
 * offsets and extra sizes, at least 8 bytes; oneway buffers also count
 * against free_async_space (half the area).
 *
 * alloc->mutex protects all of it; it is never held while user memory is
 * copied (the copies run on buffers the caller owns, whose pages stay).
 */
#include <linux/bitmap.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <linux/sched/mm.h>

#include "binderc.h"

#define BINDERC_MAX_MAP_SIZE SZ_4M

/*
 * Every mapped area, for the shrinker to walk in turn (see the lock
 * order): an area is on it from mmap to the proc's release.
 */
static DEFINE_SPINLOCK(binderc_shrink_lock);
static LIST_HEAD(binderc_shrink_allocs);
static size_t binderc_shrink_nallocs;
static struct binderc_shrinker binderc_shrinker;
static atomic_long_t binderc_pages_held;
static atomic_long_t binderc_pages_reclaimed;

/* Unused pages over all procs; each proc's count is read racily. */
static unsigned long binderc_pages_unused(void)
{
	struct binderc_alloc *alloc;
	unsigned long n = 0;

	spin_lock(&binderc_shrink_lock);
	list_for_each_entry(alloc, &binderc_shrink_allocs, shrink_entry)
		n += READ_ONCE(alloc->pages_lru);
	spin_unlock(&binderc_shrink_lock);
	return n;
}

void binderc_alloc_page_stats(long *held, long *lru, long *reclaimed)
{
	*held = atomic_long_read(&binderc_pages_held);
	*lru = binderc_pages_unused();
	*reclaimed = atomic_long_read(&binderc_pages_reclaimed);
}

void binderc_alloc_init(struct binderc_alloc *alloc, int pid)
{
	mutex_init(&alloc->mutex);
	INIT_LIST_HEAD(&alloc->buffers);
	INIT_LIST_HEAD(&alloc->shrink_entry);
	alloc->allocated = RB_ROOT;
	alloc->free_buffers = RB_ROOT;
	alloc->pid = pid;
}

static size_t binderc_alloc_buffer_size(struct binderc_alloc *alloc,
					struct binderc_buffer *buffer)
{
	if (list_is_last(&buffer->entry, &alloc->buffers))
		return alloc->buffer + alloc->buffer_size - buffer->user_data;
	return list_next_entry(buffer, entry)->user_data - buffer->user_data;
}

/* Free buffers by size, then by address: the leftmost fit is the best. */
static bool binderc_free_before(struct binderc_alloc *alloc,
				struct binderc_buffer *a,
				struct binderc_buffer *b)
{
	size_t sa = binderc_alloc_buffer_size(alloc, a);
	size_t sb = binderc_alloc_buffer_size(alloc, b);

	return sa < sb || (sa == sb && a->user_data < b->user_data);
}

static void binderc_insert_free_locked(struct binderc_alloc *alloc,
				       struct binderc_buffer *new)
{
	struct rb_node **p = &alloc->free_buffers.rb_node;
	struct rb_node *parent = NULL;

	lockdep_assert_held(&alloc->mutex);
	while (*p) {
		parent = *p;
		if (binderc_free_before(alloc, new, rb_entry(parent,
							     struct binderc_buffer,
							     rb_node)))
			p = &parent->rb_left;
		else
			p = &parent->rb_right;
	}
	rb_link_node(&new->rb_node, parent, p);
	rb_insert_color(&new->rb_node, &alloc->free_buffers);
}

/*
 * @buffer, in the size tree, changed size (or took the place of a node of
 * another size with rb_replace_node()).  A split or a merge seldom moves
 * a buffer past its neighbours in size, and a ping-pong's area has a
 * single free buffer: keep the node where it is when it is still in order,
 * as good as an erase and insert and a tenth of the work.
 */
static void binderc_resort_free_locked(struct binderc_alloc *alloc,
				       struct binderc_buffer *buffer)
{
	struct rb_node *prev, *next;

	lockdep_assert_held(&alloc->mutex);
	/* Alone in the tree (a ping-pong's area): in order by definition. */
	if (!buffer->rb_node.rb_left && !buffer->rb_node.rb_right &&
	    alloc->free_buffers.rb_node == &buffer->rb_node)
		return;
	prev = rb_prev(&buffer->rb_node);
	next = rb_next(&buffer->rb_node);
	if ((!prev || binderc_free_before(alloc, rb_entry(prev,
							  struct binderc_buffer,
							  rb_node), buffer)) &&
	    (!next || binderc_free_before(alloc, buffer,
					  rb_entry(next, struct binderc_buffer,
						   rb_node))))
		return;
	rb_erase(&buffer->rb_node, &alloc->free_buffers);
	binderc_insert_free_locked(alloc, buffer);
}

/*
 * A buffer struct for the next split: the one kept from the last merge,
 * else a new one.  Taken and given back without the mutex (xchg/cmpxchg),
 * so a call path that splits and merges once per call allocates nothing.
 */
static struct binderc_buffer *binderc_get_buffer_struct(struct binderc_alloc *alloc)
{
	struct binderc_buffer *b = xchg(&alloc->spare, NULL);

	if (b) {
		memset(b, 0, sizeof(*b));
		return b;
	}
	return kzalloc(sizeof(*b), GFP_KERNEL);
}

static void binderc_put_buffer_struct(struct binderc_alloc *alloc,
				      struct binderc_buffer *b)
{
	if (b && cmpxchg(&alloc->spare, NULL, b))
		kfree(b);
}

int binderc_alloc_mmap(struct binderc_alloc *alloc, struct vm_area_struct *vma)
{
	unsigned long *present = NULL, *unused = NULL;
	struct binderc_buffer *buffer;
	struct page **pages;
	size_t size, npages;
	int ret = 0;

	size = min_t(unsigned long, vma->vm_end - vma->vm_start,
		     BINDERC_MAX_MAP_SIZE);
	npages = size >> PAGE_SHIFT;
	/* Allocate before the mutex; a second mmap gives it back. */
	pages = kvcalloc(npages, sizeof(*pages), GFP_KERNEL);
	if (npages) {
		present = bitmap_zalloc(npages, GFP_KERNEL);
		unused = bitmap_zalloc(npages, GFP_KERNEL);
	}
	buffer = kzalloc(sizeof(*buffer), GFP_KERNEL);
	if (!pages || !buffer || (npages && (!present || !unused))) {
		ret = -ENOMEM;
		goto out_free;
	}

	binderc_lock_alloc(alloc);
	if (alloc->buffer_size) {
		binderc_unlock_alloc(alloc);
		ret = -EBUSY;
		goto out_free;
	}
	alloc->buffer = vma->vm_start;
	alloc->buffer_size = size;
	alloc->pages = pages;
	alloc->present = present;
	alloc->unused = unused;
	alloc->mm = vma->vm_mm;
	mmgrab(alloc->mm);
	alloc->free_async_space = size / 2;
	alloc->mapped = true;
	buffer->user_data = alloc->buffer;
	buffer->free = 1;
	list_add(&buffer->entry, &alloc->buffers);
	binderc_insert_free_locked(alloc, buffer);
	binderc_unlock_alloc(alloc);
	/* After the mutex: the shrinker trylocks it under this lock. */
	spin_lock(&binderc_shrink_lock);
	list_add_tail(&alloc->shrink_entry, &binderc_shrink_allocs);
	binderc_shrink_nallocs++;
	spin_unlock(&binderc_shrink_lock);
	return 0;

out_free:
	kfree(buffer);
	bitmap_free(unused);
	bitmap_free(present);
	kvfree(pages);
	return ret;
}

/* munmap or exit: later transactions to this proc fail with -ESRCH. */
void binderc_alloc_vma_close(struct binderc_alloc *alloc)
{
	binderc_lock_alloc(alloc);
	alloc->mapped = false;
	binderc_unlock_alloc(alloc);
}

vm_fault_t binderc_alloc_fault(struct binderc_alloc *alloc,
			       struct vm_fault *vmf)
{
	struct page *page = NULL;
	size_t index;

	/*
	 * The mutex: the shrinker frees unused pages under it.  The proc
	 * outlives the mapping (the vma holds the file), and the fault's
	 * reference keeps the page until the pte has it (the shrinker checks
	 * for such references under the mutex).  By address, not pgoff: the
	 * mmap offset is ignored, as in mainline.
	 */
	binderc_lock_alloc(alloc);
	if (vmf->address >= alloc->buffer) {
		index = (vmf->address - alloc->buffer) >> PAGE_SHIFT;
		if (index < alloc->buffer_size >> PAGE_SHIFT)
			page = alloc->pages[index];
	}
	if (page)
		get_page(page);
	binderc_unlock_alloc(alloc);
	if (!page)
		return VM_FAULT_SIGBUS;
	vmf->page = page;
	return 0;
}

/* The vma of @alloc's area covering @addr, if it is still there. */
static struct vm_area_struct *binderc_alloc_vma(struct binderc_alloc *alloc,
						 struct mm_struct *mm,
						 unsigned long addr)
{
	struct vm_area_struct *vma;

	if (!mm || !alloc->mapped)
		return NULL;
	vma = find_vma(mm, addr);
	/* Once unmapped, something else may be mapped there. */
	if (vma && (vma->vm_start > addr || !binderc_vma_is_alloc(vma, alloc)))
		return NULL;
	return vma;
}

/*
 * Free up to @budget unused pages of @alloc, zapping them from the mapping
 * of @mm (read-locked; NULL: the mm has no users, nobody can see them).
 * Returns how many were freed.
 */
static unsigned long binderc_free_unused_locked(struct binderc_alloc *alloc,
						 struct mm_struct *mm,
						 unsigned long budget)
{
	size_t i, npages = alloc->buffer_size >> PAGE_SHIFT;
	unsigned long freed = 0;

	lockdep_assert_held(&alloc->mutex);
	if (!alloc->pages_lru)
		return 0;
	for_each_set_bit(i, alloc->unused, npages) {
		unsigned long addr = alloc->buffer + i * PAGE_SIZE;
		struct page *page = alloc->pages[i];
		struct vm_area_struct *vma;

		if (freed >= budget)
			break;
		vma = binderc_alloc_vma(alloc, mm, addr);
		if (vma)
			binderc_zap_page(vma, addr);
		/* Mapped again meanwhile or pinned: left for a later scan. */
		if (vma && page_ref_count(page) != 1)
			continue;
		/*
		 * Without a vma, pte references (a munmap half done) keep
		 * the page until they go; the slot is not used again then.
		 */
		alloc->pages[i] = NULL;
		__clear_bit(i, alloc->present);
		__clear_bit(i, alloc->unused);
		WRITE_ONCE(alloc->pages_lru, alloc->pages_lru - 1);
		alloc->pages_held--;
		atomic_long_dec(&binderc_pages_held);
		atomic_long_inc(&binderc_pages_reclaimed);
		put_page(page);
		freed++;
	}
	return freed;
}

static unsigned long binderc_shrink_count(struct shrinker *shrinker,
					  struct shrink_control *sc)
{
	return binderc_pages_unused();
}

/*
 * Visit each area once at most, from the one after where the last scan
 * stopped.  Under binderc_shrink_lock an area cannot be released (release
 * takes it off the list under the lock first, then waits for the mutex,
 * which is trylocked here before the lock is dropped), and nothing is
 * waited for: the mm and the mutex are only tried.
 */
static unsigned long binderc_shrink_scan(struct shrinker *shrinker,
					 struct shrink_control *sc)
{
	unsigned long freed = 0;
	size_t visits;

	spin_lock(&binderc_shrink_lock);
	for (visits = binderc_shrink_nallocs;
	     visits && freed < sc->nr_to_scan; visits--) {
		struct binderc_alloc *alloc;
		struct mm_struct *mm;
		bool has_users;

		alloc = list_first_entry(&binderc_shrink_allocs,
					 struct binderc_alloc, shrink_entry);
		list_move_tail(&alloc->shrink_entry, &binderc_shrink_allocs);
		/* A racy peek: the count is read again under the mutex. */
		if (!READ_ONCE(alloc->pages_lru))
			continue;
		mm = alloc->mm;
		/* No users: the mapping is gone or going. */
		has_users = mmget_not_zero(mm);
		if (has_users && !mmap_read_trylock(mm)) {
			mmput_async(mm);
			continue;
		}
		if (!mutex_trylock(&alloc->mutex)) {
			if (has_users) {
				mmap_read_unlock(mm);
				mmput_async(mm);
			}
			continue;
		}
		spin_unlock(&binderc_shrink_lock);
		freed += binderc_free_unused_locked(alloc,
						    has_users ? mm : NULL,
						    sc->nr_to_scan - freed);
		binderc_unlock_alloc(alloc);
		if (has_users) {
			mmap_read_unlock(mm);
			mmput_async(mm);
		}
		spin_lock(&binderc_shrink_lock);
		/* Areas may have come and gone meanwhile. */
		visits = min(visits, binderc_shrink_nallocs + 1);
	}
	spin_unlock(&binderc_shrink_lock);
	return freed;
}

int binderc_alloc_shrinker_init(void)
{
	return binderc_shrinker_register(&binderc_shrinker,
					 binderc_shrink_count,
					 binderc_shrink_scan, "binderc");
}

void binderc_alloc_shrinker_exit(void)
{
	binderc_shrinker_unregister(&binderc_shrinker);
}

void binderc_alloc_release(struct binderc_alloc *alloc)
{
	struct binderc_buffer *buffer, *tmp;
	size_t i, npages = alloc->buffer_size >> PAGE_SHIFT;

	/* Off the shrinker's list, then wait for a scan holding the mutex. */
	spin_lock(&binderc_shrink_lock);
	if (!list_empty(&alloc->shrink_entry)) {
		list_del_init(&alloc->shrink_entry);
		binderc_shrink_nallocs--;
	}
	spin_unlock(&binderc_shrink_lock);
	binderc_lock_alloc(alloc);
	list_for_each_entry_safe(buffer, tmp, &alloc->buffers, entry) {
		/* Buffers userspace never freed go with the proc. */
		if (!buffer->free)
			binderc_count_dec(BINDERC_CNT_BUFFER);
		list_del(&buffer->entry);
		kfree(buffer);
	}
	if (alloc->present) {
		for_each_set_bit(i, alloc->present, npages) {
			put_page(alloc->pages[i]);
			atomic_long_dec(&binderc_pages_held);
		}
	}
	kfree(xchg(&alloc->spare, NULL));
	bitmap_free(alloc->unused);
	bitmap_free(alloc->present);
	kvfree(alloc->pages);
	alloc->pages = NULL;
	alloc->present = NULL;
	alloc->unused = NULL;
	alloc->pages_held = 0;
	WRITE_ONCE(alloc->pages_lru, 0);
	binderc_unlock_alloc(alloc);
	if (alloc->mm)
		mmdrop(alloc->mm);
	alloc->mm = NULL;
}

static void binderc_insert_allocated_locked(struct binderc_alloc *alloc,
					    struct binderc_buffer *new)
{
	struct rb_node **p = &alloc->allocated.rb_node;
	struct rb_node *parent = NULL;

	lockdep_assert_held(&alloc->mutex);
	while (*p) {
		struct binderc_buffer *buffer;

		parent = *p;
		buffer = rb_entry(parent, struct binderc_buffer, rb_node);
		if (new->user_data < buffer->user_data)
			p = &parent->rb_left;
		else
			p = &parent->rb_right;
	}
	rb_link_node(&new->rb_node, parent, p);
	rb_insert_color(&new->rb_node, &alloc->allocated);
}

/* @n more (or, negative, fewer) of @alloc's pages are unused. */
static void binderc_count_unused_locked(struct binderc_alloc *alloc, long n)
{
	lockdep_assert_held(&alloc->mutex);
	/* Read without the mutex by the shrinker's count. */
	WRITE_ONCE(alloc->pages_lru, alloc->pages_lru + n);
}

/*
 * The page bitmaps are walked a word at a time: a 1 MiB buffer's 256
 * pages are four words on a 64-bit kernel, a small buffer's one or two
 * pages one word.  For word @w of a walk over bits [first, last), the mask
 * of the bits inside it.
 */
static __always_inline unsigned long binderc_word_mask(size_t w, size_t first,
							size_t last)
{
	unsigned long mask = ~0UL;

	if (w == BIT_WORD(first))
		mask &= BITMAP_FIRST_WORD_MASK(first);
	if (w == BIT_WORD(last - 1))
		mask &= BITMAP_LAST_WORD_MASK(last);
	return mask;
}

/* Set bits in @x; one is the common case (a small buffer's page). */
static __always_inline long binderc_nbits(unsigned long x)
{
	return x & (x - 1) ? hweight_long(x) : x != 0;
}

/*
 * Make sure every page under [start, end) exists and is marked in use.
 * On failure the range's pages are left as they were, and those allocated
 * here are unused (no allocated buffer covers a page that was missing):
 * the shrinker may take them back.
 */
static int binderc_alloc_pages_locked(struct binderc_alloc *alloc,
				      unsigned long start, unsigned long end)
{
	size_t first = (start - alloc->buffer) >> PAGE_SHIFT;
	size_t last = (PAGE_ALIGN(end) - alloc->buffer) >> PAGE_SHIFT;
	long added = 0, reused = 0;
	size_t w;

	lockdep_assert_held(&alloc->mutex);
	if (first >= last)
		return 0;
	w = BIT_WORD(first);
	if (likely(w == BIT_WORD(last - 1))) {
		/* Within one word, every page there: a call's usual case. */
		unsigned long mask = BITMAP_FIRST_WORD_MASK(first) &
				     BITMAP_LAST_WORD_MASK(last);

		if (likely(!(~alloc->present[w] & mask))) {
			reused = binderc_nbits(alloc->unused[w] & mask);
			alloc->unused[w] &= ~mask;
			if (reused)
				binderc_count_unused_locked(alloc, -reused);
			return 0;
		}
	}
	for (; w <= BIT_WORD(last - 1); w++) {
		unsigned long missing;

		missing = ~alloc->present[w] & binderc_word_mask(w, first, last);
		while (missing) {
			size_t i = w * BITS_PER_LONG + __ffs(missing);
			struct page *page;

			page = alloc_page(GFP_KERNEL | __GFP_HIGHMEM |
					  __GFP_ZERO);
			if (!page) {
				binderc_count_unused_locked(alloc, added);
				return -ENOMEM;
			}
			alloc->pages[i] = page;
			__set_bit(i, alloc->present);
			__set_bit(i, alloc->unused);
			added++;
			alloc->pages_held++;
			atomic_long_inc(&binderc_pages_held);
			missing &= missing - 1;
		}
	}
	/* The shrinker frees only unused pages, under the mutex. */
	for (w = BIT_WORD(first); w <= BIT_WORD(last - 1); w++) {
		unsigned long mask = binderc_word_mask(w, first, last);

		reused += binderc_nbits(alloc->unused[w] & mask);
		alloc->unused[w] &= ~mask;
	}
	binderc_count_unused_locked(alloc, added - reused);
	return 0;
}

/*
 * The pages of [start, end) that no buffer covers any more are marked
 * unused; [free_start, free_end) is the free buffer they are now part of,
 * so only pages wholly inside it are.
 */
static void binderc_mark_unused_locked(struct binderc_alloc *alloc,
				       unsigned long start, unsigned long end,
				       unsigned long free_start,
				       unsigned long free_end)
{
	unsigned long from = max(round_down(start, PAGE_SIZE),
				 PAGE_ALIGN(free_start));
	unsigned long to = min(PAGE_ALIGN(end), round_down(free_end, PAGE_SIZE));
	size_t first, last, w;
	long n = 0;

	lockdep_assert_held(&alloc->mutex);
	if (from >= to)
		return;
	first = (from - alloc->buffer) >> PAGE_SHIFT;
	last = (to - alloc->buffer) >> PAGE_SHIFT;
	for (w = BIT_WORD(first); w <= BIT_WORD(last - 1); w++) {
		unsigned long mark = alloc->present[w] & ~alloc->unused[w] &
				     binderc_word_mask(w, first, last);

		alloc->unused[w] |= mark;
		n += binderc_nbits(mark);
	}
	if (n)
		binderc_count_unused_locked(alloc, n);
}

/* The smallest free buffer of at least @size bytes, or NULL. */
static struct binderc_buffer *
binderc_best_fit_locked(struct binderc_alloc *alloc, size_t size)
{
	struct rb_node *n = alloc->free_buffers.rb_node;
	struct binderc_buffer *best = NULL;

	lockdep_assert_held(&alloc->mutex);
	while (n) {
		struct binderc_buffer *buffer;

		buffer = rb_entry(n, struct binderc_buffer, rb_node);
		if (binderc_alloc_buffer_size(alloc, buffer) >= size) {
			/* A fit; a smaller (or lower) one is to the left. */
			best = buffer;
			n = n->rb_left;
		} else {
			n = n->rb_right;
		}
	}
	return best;
}

static int binderc_buffer_size_for(size_t data_size, size_t offsets_size,
				   size_t extra_buffers_size, size_t *sizep)
{
	size_t data_offsets, size;

	/* Every ALIGN() sum is checked: userspace picks all three sizes. */
	data_offsets = ALIGN(data_size, sizeof(void *)) +
		       ALIGN(offsets_size, sizeof(void *));
	if (data_offsets < data_size || data_offsets < offsets_size)
		return -EINVAL;
	size = data_offsets + ALIGN(extra_buffers_size, sizeof(void *));
	if (size < data_offsets || size < extra_buffers_size)
		return -EINVAL;
	/* Zero-sized buffers still get distinct addresses. */
	*sizep = max_t(size_t, size, sizeof(void *));
	return 0;
}

/*
 * Below a tenth of the area (a fifth of the async half) left, look at the
 * sender that is allocating now: more than 50 oneway buffers, or more than
 * a quarter of the area, flags this buffer once, until space recovers.
 */
static void binderc_check_oneway_spam_locked(struct binderc_alloc *alloc,
					     struct binderc_buffer *new,
					     int pid)
{
	size_t total = 0, count = 0;
	struct rb_node *n;

	lockdep_assert_held(&alloc->mutex);
	if (alloc->free_async_space >= alloc->buffer_size / 10) {
		alloc->oneway_spam_detected = false;
		return;
	}
	for (n = rb_first(&alloc->allocated); n; n = rb_next(n)) {
		struct binderc_buffer *buffer;

		buffer = rb_entry(n, struct binderc_buffer, rb_node);
		if (buffer->pid != pid || !buffer->async_transaction)
			continue;
		total += binderc_alloc_buffer_size(alloc, buffer);
		count++;
	}
	if ((count > 50 || total > alloc->buffer_size / 4) &&
	    !alloc->oneway_spam_detected) {
		alloc->oneway_spam_detected = true;
		new->oneway_spam_suspect = 1;
	}
}

struct binderc_buffer *binderc_alloc_new_buf(struct binderc_alloc *alloc,
					     size_t data_size,
					     size_t offsets_size,
					     size_t extra_buffers_size,
					     bool is_async, int pid)
{
	struct binderc_buffer *buffer, *rest;
	size_t size, bsize;
	int ret;

	ret = binderc_buffer_size_for(data_size, offsets_size,
				      extra_buffers_size, &size);
	if (ret)
		return ERR_PTR(ret);
	rest = binderc_get_buffer_struct(alloc);
	if (!rest)
		return ERR_PTR(-ENOMEM);

	binderc_lock_alloc(alloc);
	ret = -ESRCH;
	if (!alloc->mapped)
		goto out_unlock;
	ret = -ENOSPC;
	if (is_async && alloc->free_async_space < size)
		goto out_unlock;
	buffer = binderc_best_fit_locked(alloc, size);
	if (!buffer)
		goto out_unlock;
	ret = binderc_alloc_pages_locked(alloc, buffer->user_data,
					 buffer->user_data + size);
	if (ret)
		goto out_unlock;

	bsize = binderc_alloc_buffer_size(alloc, buffer);
	if (bsize != size) {
		/* The rest takes the buffer's node in the size tree. */
		rest->user_data = buffer->user_data + size;
		rest->free = 1;
		list_add(&rest->entry, &buffer->entry);
		rb_replace_node(&buffer->rb_node, &rest->rb_node,
				&alloc->free_buffers);
		binderc_resort_free_locked(alloc, rest);
		rest = NULL;
	} else {
		rb_erase(&buffer->rb_node, &alloc->free_buffers);
	}
	buffer->free = 0;
	buffer->allow_user_free = 0;
	buffer->clear_on_free = 0;
	buffer->transaction = NULL;
	buffer->target_node = NULL;
	buffer->data_size = data_size;
	buffer->offsets_size = offsets_size;
	buffer->extra_buffers_size = extra_buffers_size;
	buffer->async_transaction = is_async;
	buffer->pid = pid;
	buffer->debug_id = 0;
	binderc_insert_allocated_locked(alloc, buffer);
	buffer->oneway_spam_suspect = 0;
	if (is_async) {
		alloc->free_async_space -= size;
		binderc_check_oneway_spam_locked(alloc, buffer, pid);
	}
	binderc_count_inc(BINDERC_CNT_BUFFER);
	binderc_unlock_alloc(alloc);
	binderc_put_buffer_struct(alloc, rest);
	return buffer;

out_unlock:
	binderc_unlock_alloc(alloc);
	binderc_put_buffer_struct(alloc, rest);
	return ERR_PTR(ret);
}

static struct binderc_buffer *
binderc_find_allocated_locked(struct binderc_alloc *alloc,
			      unsigned long user_ptr)
{
	struct rb_node *n = alloc->allocated.rb_node;

	lockdep_assert_held(&alloc->mutex);
	while (n) {
		struct binderc_buffer *buffer;

		buffer = rb_entry(n, struct binderc_buffer, rb_node);
		if (user_ptr < buffer->user_data)
			n = n->rb_left;
		else if (user_ptr > buffer->user_data)
			n = n->rb_right;
		else
			return buffer;
	}
	return NULL;
}

/*
 * BC_FREE_BUFFER's lookup.  Only a buffer already handed to userspace may be
 * freed, and only once (CVE-2019-2025): allow_user_free is cleared here.
 */
struct binderc_buffer *
binderc_alloc_prepare_to_free(struct binderc_alloc *alloc,
			      unsigned long user_ptr)
{
	struct binderc_buffer *buffer;

	binderc_lock_alloc(alloc);
	buffer = binderc_find_allocated_locked(alloc, user_ptr);
	if (buffer) {
		if (buffer->allow_user_free)
			buffer->allow_user_free = 0;
		else
			buffer = ERR_PTR(-EPERM);
	}
	binderc_unlock_alloc(alloc);
	return buffer;
}

static void binderc_clear_buffer(struct binderc_alloc *alloc,
				 struct binderc_buffer *buffer, size_t size)
{
	size_t off = 0;

	while (off < size) {
		unsigned long addr = buffer->user_data + off;
		size_t pgoff = offset_in_page(addr);
		size_t chunk = min_t(size_t, size - off, PAGE_SIZE - pgoff);
		struct page *page;

		page = alloc->pages[(addr - alloc->buffer) >> PAGE_SHIFT];
		memzero_page(page, pgoff, chunk);
		off += chunk;
	}
}

void binderc_alloc_free_buf(struct binderc_alloc *alloc,
			    struct binderc_buffer *buffer)
{
	struct binderc_buffer *next, *prev;
	bool in_tree = false;
	unsigned long start;
	size_t bsize;

	binderc_lock_alloc(alloc);
	WARN_ON(buffer->free);
	WARN_ON(buffer->transaction);
	bsize = binderc_alloc_buffer_size(alloc, buffer);
	start = buffer->user_data;
	/* TF_CLEAR_BUF: the payload must not outlive the buffer. */
	if (buffer->clear_on_free) {
		binderc_clear_buffer(alloc, buffer, bsize);
		buffer->clear_on_free = 0;
	}
	if (buffer->async_transaction)
		alloc->free_async_space += bsize;
	rb_erase(&buffer->rb_node, &alloc->allocated);
	buffer->free = 1;
	buffer->transaction = NULL;
	buffer->target_node = NULL;
	binderc_count_dec(BINDERC_CNT_BUFFER);

	/*
	 * Merge with free neighbours so the area does not fragment.  The
	 * buffer takes a free next one's node in the size tree, a free
	 * previous one takes the buffer in; the survivor is then put back
	 * in order (usually where it is).
	 */
	if (!list_is_last(&buffer->entry, &alloc->buffers)) {
		next = list_next_entry(buffer, entry);
		if (next->free) {
			rb_replace_node(&next->rb_node, &buffer->rb_node,
					&alloc->free_buffers);
			list_del(&next->entry);
			binderc_put_buffer_struct(alloc, next);
			in_tree = true;
		}
	}
	if (!list_is_first(&buffer->entry, &alloc->buffers)) {
		prev = list_prev_entry(buffer, entry);
		if (prev->free) {
			if (in_tree)
				rb_erase(&buffer->rb_node,
					 &alloc->free_buffers);
			list_del(&buffer->entry);
			binderc_put_buffer_struct(alloc, buffer);
			buffer = prev;
			in_tree = true;
		}
	}
	if (in_tree)
		binderc_resort_free_locked(alloc, buffer);
	else
		binderc_insert_free_locked(alloc, buffer);
	binderc_mark_unused_locked(alloc, start, start + bsize, buffer->user_data,
			       buffer->user_data +
			       binderc_alloc_buffer_size(alloc, buffer));
	binderc_unlock_alloc(alloc);
}

/*
 * Walk [offset, offset + bytes) of @buffer page by page.  The range is
 * checked against the buffer first: offsets come from userspace.
 */
static bool binderc_range_ok(struct binderc_alloc *alloc,
			     struct binderc_buffer *buffer, size_t offset,
			     size_t bytes)
{
	size_t bsize;

	/*
	 * The buffer's own sizes (checked for overflow at allocation), not
	 * its neighbours on the list, which the mutex would be needed for.
	 */
	bsize = ALIGN(buffer->data_size, sizeof(void *)) +
		ALIGN(buffer->offsets_size, sizeof(void *)) +
		ALIGN(buffer->extra_buffers_size, sizeof(void *));
	return offset <= bsize && bytes <= bsize - offset;
}

static struct page *binderc_page_at(struct binderc_alloc *alloc,
				    struct binderc_buffer *buffer,
				    size_t offset, size_t *pgoffp)
{
	unsigned long addr = buffer->user_data + offset;

	*pgoffp = offset_in_page(addr);
	return alloc->pages[(addr - alloc->buffer) >> PAGE_SHIFT];
}

/* Returns the number of bytes not copied (like copy_from_user). */
unsigned long binderc_alloc_copy_user_to_buffer(struct binderc_alloc *alloc,
						struct binderc_buffer *buffer,
						size_t offset,
						const void __user *from,
						size_t bytes)
{
	if (!binderc_range_ok(alloc, buffer, offset, bytes))
		return bytes;
	while (bytes) {
		size_t pgoff, chunk;
		unsigned long left;
		struct page *page;
		void *kptr;

		page = binderc_page_at(alloc, buffer, offset, &pgoff);
		chunk = min_t(size_t, bytes, PAGE_SIZE - pgoff);
		kptr = kmap_local_page(page) + pgoff;
		left = copy_from_user(kptr, from, chunk);
		kunmap_local(kptr);
		if (left)
			return bytes - chunk + left;
		bytes -= chunk;
		from += chunk;
		offset += chunk;
	}
	return 0;
}

/* Copy between kernel memory @mem and a buffer, a page at a time. */
static int binderc_alloc_copy(struct binderc_alloc *alloc,
			      struct binderc_buffer *buffer, size_t offset,
			      void *mem, size_t bytes, bool to_buffer)
{
	if (!binderc_range_ok(alloc, buffer, offset, bytes))
		return -EINVAL;
	while (bytes) {
		size_t pgoff, chunk;
		struct page *page;

		page = binderc_page_at(alloc, buffer, offset, &pgoff);
		chunk = min_t(size_t, bytes, PAGE_SIZE - pgoff);
		if (to_buffer)
			memcpy_to_page(page, pgoff, mem, chunk);
		else
			memcpy_from_page(mem, page, pgoff, chunk);
		bytes -= chunk;
		mem += chunk;
		offset += chunk;
	}
	return 0;
}

int binderc_alloc_copy_to_buffer(struct binderc_alloc *alloc,
				 struct binderc_buffer *buffer, size_t offset,
				 const void *src, size_t bytes)
{
	/* Only read from: the one walker serves both directions. */
	return binderc_alloc_copy(alloc, buffer, offset, (void *)src, bytes,
				  true);
}

int binderc_alloc_copy_from_buffer(struct binderc_alloc *alloc, void *dest,
				   struct binderc_buffer *buffer,
				   size_t offset, size_t bytes)
{
	return binderc_alloc_copy(alloc, buffer, offset, dest, bytes, false);
}
