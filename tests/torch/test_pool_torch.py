"""PyTorch through the reference pool: tensors routed into the pool with
CUDAPluggableAllocator + MemPool, .item() on them, sleep, wake, values and
the device memory this process releases checked. Runs where torch and a
GPU are; skips with the reason elsewhere. Written with unittest so that both pytest and
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


class _ProcessInfo(ctypes.Structure):
    # nvmlProcessInfo_v2_t, what nvmlDeviceGetComputeRunningProcesses_v3 fills
    _fields_ = [("pid", ctypes.c_uint), ("usedGpuMemory", ctypes.c_ulonglong),
                ("gpuInstanceId", ctypes.c_uint), ("computeInstanceId", ctypes.c_uint)]


def own_device_bytes():
    """This process's device memory as the driver accounts it (NVML), or
    (None, why). Device-wide free memory cannot judge a release: the other
    pool configurations run beside this one and allocate on the same GPU."""
    try:
        nvml = ctypes.CDLL("libnvidia-ml.so.1")
    except OSError as e:
        return None, "no NVML (%s)" % e
    if nvml.nvmlInit_v2() != 0:
        return None, "nvmlInit_v2 failed"
    count = ctypes.c_uint(0)
    if nvml.nvmlDeviceGetCount_v2(ctypes.byref(count)) != 0:
        return None, "nvmlDeviceGetCount_v2 failed"
    total, seen = 0, False
    for i in range(count.value):
        dev = ctypes.c_void_p()
        if nvml.nvmlDeviceGetHandleByIndex_v2(i, ctypes.byref(dev)) != 0:
            return None, "nvmlDeviceGetHandleByIndex_v2(%d) failed" % i
        infos = (_ProcessInfo * 256)()
        n = ctypes.c_uint(len(infos))
        rc = nvml.nvmlDeviceGetComputeRunningProcesses_v3(dev, ctypes.byref(n), infos)
        if rc != 0:
            return None, "nvmlDeviceGetComputeRunningProcesses_v3 returned %d" % rc
        for info in infos[:n.value]:
            if info.pid == os.getpid():
                if info.usedGpuMemory == ctypes.c_ulonglong(-1).value:  # NVML_VALUE_NOT_AVAILABLE
                    return None, "NVML does not report per-process memory here"
                total, seen = total + info.usedGpuMemory, True
    if not seen:
        return None, "NVML lists no process %d (another PID namespace?)" % os.getpid()
    return total, None


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

    def setUp(self):
        # A check that fails while the pool sleeps must not leave it asleep:
        # an asleep pool refuses every allocation, so each later test would
        # fail with "out of memory" instead of its own finding.
        self.addCleanup(self.lib.hostaccess_wake, b"")

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
        own_before, why = own_device_bytes()
        self.assertEqual(self.lib.hostaccess_sleep(b"weights"), 0, self.err())
        self.assertEqual(self.lib.hostaccess_mapped_bytes(), 0)
        if backing == "device":
            own_asleep, why = own_device_bytes() if why is None else (None, why)
            if why is not None:
                print("released device memory not checked: " + why)
            else:
                print("this process's device memory fell by %d bytes for %d mapped"
                      % (own_before - own_asleep, mapped))
                self.assertGreaterEqual(own_before - own_asleep, 0.95 * mapped)

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
        self.assertEqual(self.err(), "")                      # the failure was read (the message above): none left
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
