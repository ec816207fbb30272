"""PyTorch through the reference pool: tensors routed into the pool with
CUDAPluggableAllocator + MemPool, .item() on them, sleep, wake, values and
freed memory checked. Runs where torch and a GPU are; skips with the reason
elsewhere. Written with unittest so that both pytest and
`python3 -m unittest` run it.

HOSTACCESS_POOL_LIB names the library (default build/libhostaccess_pool.so);
HOSTACCESS_POOL_BACKING and HOSTACCESS_POOL_HOST_ACCESS configure it (see
fix/torch_alloc.c).
"""
import ctypes
import os
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LIB = os.environ.get("HOSTACCESS_POOL_LIB", os.path.join(ROOT, "build", "libhostaccess_pool.so"))

try:
    import torch
except ImportError:  # CI machines have no torch
    torch = None


def skip_reason():
    if torch is None:
        why = "torch is not installed"
    elif not torch.cuda.is_available():
        why = "torch sees no GPU"
    elif not os.path.exists(LIB):
        why = "%s is not built (make probes)" % LIB
    else:
        return None
    # make check-gpu: on a machine meant to have both, a skip would hide the test.
    if os.environ.get("HOSTACCESS_REQUIRE_GPU") == "1":
        raise SystemExit("test_pool_torch: HOSTACCESS_REQUIRE_GPU=1 but " + why)
    return why


@unittest.skipIf(skip_reason() is not None, skip_reason() or "")
class PoolThroughPyTorch(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.lib = ctypes.CDLL(LIB)
        cls.lib.hostaccess_last_error.restype = ctypes.c_char_p
        cls.lib.hostaccess_config.restype = ctypes.c_char_p
        cls.lib.hostaccess_mapped_bytes.restype = ctypes.c_size_t
        cls.alloc = torch.cuda.memory.CUDAPluggableAllocator(LIB, "my_malloc", "my_free")
        cls.pool = torch.cuda.MemPool(cls.alloc.allocator())
        # A platform may refuse this configuration (CUDA refuses host access
        # to device memory): then there is nothing to test here, and the
        # pool says why.
        try:
            with torch.cuda.use_mem_pool(cls.pool):
                torch.empty(1, device="cuda")
        except torch.OutOfMemoryError:
            why = cls.lib.hostaccess_last_error().decode()
            if "unsupported" in why:
                raise unittest.SkipTest("the pool refuses this configuration here: " + why)
            raise

    def err(self):
        return self.lib.hostaccess_last_error().decode()

    def make(self, tag, n, value, pool=None):
        # A fresh MemPool for a test that needs its own allocations: the
        # class's pool may serve a request from a block an earlier test
        # freed, which never reaches my_malloc and so never takes the tag.
        self.assertEqual(self.lib.hostaccess_set_tag(tag.encode()), 0)
        with torch.cuda.use_mem_pool(pool or self.pool):
            t = torch.full((n,), value, dtype=torch.float32, device="cuda")
        torch.cuda.synchronize()
        return t

    def test_item_sleep_wake(self):
        weights = self.make("weights", 64 << 20, 7.0)     # 256 MiB, offloaded
        cache = self.make("kv_cache", 16 << 20, 3.0)      # 64 MiB, discarded
        print("\npool:", self.lib.hostaccess_config().decode())
        self.assertEqual(weights[12345].item(), 7.0)
        self.assertEqual(cache[0].item(), 3.0)
        mapped = self.lib.hostaccess_mapped_bytes()
        self.assertGreaterEqual(mapped, (64 << 20) * 4 + (16 << 20) * 4)

        # The fast-path read, as PyTorch's large-BAR .item() does it, on pool
        # memory: it works with the fix (host-backed on CUDA), faults
        # (contained) without it.
        value = ctypes.c_uint()
        rc = self.lib.hostaccess_host_read_u32(ctypes.c_void_p(weights.data_ptr()), ctypes.byref(value))
        host_access = os.environ.get("HOSTACCESS_POOL_HOST_ACCESS", "1") != "0"
        backing = os.environ.get("HOSTACCESS_POOL_BACKING", "device")
        print("host read of pool memory: status %d, value %#x (backing %s, host access %s)"
              % (rc, value.value, backing, host_access))
        if host_access and backing == "host":
            self.assertEqual(rc, 0)
            self.assertEqual(value.value, 0x40E00000)  # 7.0f
        if not host_access:
            self.assertNotEqual(rc, 0)

        torch.cuda.synchronize()
        free_before, _ = torch.cuda.mem_get_info()
        self.assertEqual(self.lib.hostaccess_sleep(b"weights"), 0, self.err())
        free_asleep, _ = torch.cuda.mem_get_info()
        self.assertEqual(self.lib.hostaccess_mapped_bytes(), 0)
        if backing == "device":
            print("free device memory rose by %d bytes for %d mapped" % (free_asleep - free_before, mapped))
            self.assertGreaterEqual(free_asleep - free_before, 0.95 * mapped)

        self.assertEqual(self.lib.hostaccess_wake(b""), 0, self.err())
        self.assertEqual(weights[12345].item(), 7.0)       # offloaded: restored
        self.assertEqual(float(weights.sum().item()), 7.0 * weights.numel())
        cache.fill_(5.0)                                   # discarded: usable again
        self.assertEqual(cache[1].item(), 5.0)

    def test_sleep_waits_for_a_kernel_still_writing(self):
        # A kernel enqueued on a side stream before sleep and still running
        # when sleep is called: the offloaded bytes must be its final ones.
        pool = torch.cuda.MemPool(self.alloc.allocator())
        w = self.make("inflight", 16 << 20, 1.0, pool)    # 64 MiB
        # One cycle first: the pinned backup is allocated then, and that
        # allocation synchronizes the device by itself, hiding a missing drain.
        self.assertEqual(self.lib.hostaccess_sleep(b"inflight"), 0, self.err())
        self.assertEqual(self.lib.hostaccess_wake(b""), 0, self.err())
        torch.cuda.synchronize()
        side = torch.cuda.Stream()                         # PyTorch's streams do not wait for the null stream
        with torch.cuda.stream(side):
            torch.cuda._sleep(500_000_000)                 # a few hundred ms of spinning first
            w.fill_(9.0)
        self.assertFalse(side.query(), "the kernel finished before sleep: nothing in flight to test")
        self.assertEqual(self.lib.hostaccess_sleep(b"inflight"), 0, self.err())   # no synchronize before it
        # The values alone cannot tell: an undrained fill still queued when
        # sleep and wake are done lands on the woken memory and leaves 9s too.
        # So: sleep returned only once the kernel was done, before it offloaded.
        self.assertTrue(side.query(), "sleep returned while a kernel writing pool memory was still running")
        self.assertEqual(self.lib.hostaccess_wake(b""), 0, self.err())
        torch.cuda.synchronize()
        self.assertEqual(float(w.min().item()), 9.0)
        self.assertEqual(float(w.max().item()), 9.0)

    def test_tags_discard_and_errors_through_the_library(self):
        pool = torch.cuda.MemPool(self.alloc.allocator())
        a = self.make("tq_a", 1 << 20, 2.0, pool)
        self.make("tq_b", 1 << 20, 3.0, pool)
        self.lib.hostaccess_tag_bytes.restype = ctypes.c_longlong
        self.assertGreaterEqual(self.lib.hostaccess_tag_bytes(b"tq_a"), 4 << 20)
        self.assertNotEqual(self.lib.hostaccess_sleep(b"no-such-tag"), 0)
        self.assertEqual(self.lib.hostaccess_sleep(b"tq_a"), 0, self.err())
        self.assertEqual(self.err(), "")                      # a success clears the last error
        self.assertEqual(self.lib.hostaccess_tag_asleep(b"tq_a"), 1)
        self.assertEqual(self.lib.hostaccess_discard(b"tq_a"), 0, self.err())
        self.assertEqual(self.lib.hostaccess_wake(b""), 0, self.err())
        self.assertEqual(self.lib.hostaccess_tag_asleep(b"tq_a"), 0)
        a.fill_(4.0)                                          # discarded: usable, contents its own again
        self.assertEqual(a[7].item(), 4.0)

    def test_bad_calls_are_errors_not_crashes(self):
        self.make("other", 1024, 1.0)
        self.assertNotEqual(self.lib.hostaccess_sleep(b"no-such-tag"), 0)
        self.assertIn("no-such-tag", self.err())
        self.assertNotEqual(self.lib.hostaccess_wake(b""), 0)   # wake without sleep


if __name__ == "__main__":
    unittest.main(verbosity=2)
