"""The pool library (libhostaccess_pool.so, PyTorch's pluggable-allocator
entry points) over the stand-in ROCm runtime, with ctypes and no torch:
allocate, write through the runtime, read with the fast path, sleep (the
ROCm path: offload, unmap, release, free and re-reserve the same
addresses), wake, read again. With the host-access fix the reads work; in
a pool without it they are a contained SIGSEGV.
    python3 tests/standin/pool_over_standin.py BUILD_DIR FIX(0|1)
Prints one line per step; exits 0 when every step is as expected."""
import ctypes
import os
import sys

build, fix = sys.argv[1], sys.argv[2] == "1"
os.environ.update({
    "HOSTACCESS_BACKEND": "hip",
    "HOSTACCESS_HIP_LIBRARY": os.path.join(build, "standin", "libamdhip64.so"),
    "HOSTACCESS_STANDIN_PROFILE": "7.14",
    "HOSTACCESS_POOL_HOST_ACCESS": "1" if fix else "0",
})
lib = ctypes.CDLL(os.path.join(build, "libhostaccess_pool.so"))
hip = ctypes.CDLL(os.environ["HOSTACCESS_HIP_LIBRARY"])
lib.my_malloc.restype = ctypes.c_void_p
lib.my_malloc.argtypes = [ctypes.c_ssize_t, ctypes.c_int, ctypes.c_void_p]
lib.hostaccess_last_error.restype = ctypes.c_char_p
lib.hostaccess_config.restype = ctypes.c_char_p
lib.hostaccess_host_read_u32.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint)]
hip.hipMemcpy.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]


def vram_kept_while_reserved():
    """The model itself: unmap and release alone do not give VRAM back."""
    free_b, total = ctypes.c_size_t(0), ctypes.c_size_t(0)
    va, h = ctypes.c_void_p(0), ctypes.c_void_p(0)
    size = 2 << 20

    class Loc(ctypes.Structure):
        _fields_ = [("type", ctypes.c_int), ("id", ctypes.c_int)]

    class Prop(ctypes.Structure):  # the 5.3 - 7.2 layout
        _fields_ = [("type", ctypes.c_int), ("handle", ctypes.c_int), ("loc", Loc), ("win32", ctypes.c_void_p),
                    ("flags", ctypes.c_uint32)]

    prop = Prop(1, 0, Loc(1, 0), None, 0)
    hip.hipMemGetInfo(ctypes.byref(free_b), ctypes.byref(total))
    start = free_b.value
    assert hip.hipMemAddressReserve(ctypes.byref(va), ctypes.c_size_t(size), ctypes.c_size_t(0), None,
                                    ctypes.c_ulonglong(0)) == 0
    assert hip.hipMemCreate(ctypes.byref(h), ctypes.c_size_t(size), ctypes.byref(prop), ctypes.c_ulonglong(0)) == 0
    assert hip.hipMemMap(va, ctypes.c_size_t(size), ctypes.c_size_t(0), h, ctypes.c_ulonglong(0)) == 0
    assert hip.hipMemUnmap(va, ctypes.c_size_t(size)) == 0
    assert hip.hipMemRelease(h) == 0
    hip.hipMemGetInfo(ctypes.byref(free_b), ctypes.byref(total))
    kept = start - free_b.value
    assert hip.hipMemAddressFree(va, ctypes.c_size_t(size)) == 0
    hip.hipMemGetInfo(ctypes.byref(free_b), ctypes.byref(total))
    check("released VRAM is kept while its range is reserved", kept == size and free_b.value == start,
          "kept %d bytes, %d after the range was freed" % (kept, start - free_b.value))

failed = 0


def check(what, ok, detail=""):
    global failed
    failed += not ok
    print("%s %s%s" % ("ok  " if ok else "FAIL", what, ": " + detail if detail else ""))


vram_kept_while_reserved()
assert lib.hostaccess_set_tag(b"weights") == 0
p = lib.my_malloc(4096, 0, None)
check("my_malloc", bool(p), lib.hostaccess_last_error().decode())
print("pool:", lib.hostaccess_config().decode())
value = ctypes.c_uint(0x5CA1AB1E)
check("write through the runtime", hip.hipMemcpy(p, ctypes.byref(value), 4, 1) == 0)


def fast_read(when):
    got = ctypes.c_uint(0)
    st = lib.hostaccess_host_read_u32(p, ctypes.byref(got))
    if fix:
        check("fast-path read " + when, st == 0 and got.value == 0x5CA1AB1E, "status %d value %#x" % (st, got.value))
    else:
        check("fast-path read " + when + " faults, contained", st == 11, "status %d" % st)


fast_read("before sleep")
free_b, total = ctypes.c_size_t(0), ctypes.c_size_t(0)
hip.hipMemGetInfo(ctypes.byref(free_b), ctypes.byref(total))
before = free_b.value
lib.hostaccess_mapped_bytes.restype = ctypes.c_size_t
mapped = lib.hostaccess_mapped_bytes()
check("sleep", lib.hostaccess_sleep(b"weights") == 0, lib.hostaccess_last_error().decode())
hip.hipMemGetInfo(ctypes.byref(free_b), ctypes.byref(total))
# The runtime keeps released VRAM while its range stays reserved: the
# pool's free-and-re-reserve on sleep is what gives it back.
check("sleep gave the VRAM back (free and re-reserve)", mapped > 0 and free_b.value - before == mapped,
      "free memory rose by %d bytes for %d mapped" % (free_b.value - before, mapped))
check("wake", lib.hostaccess_wake(b"") == 0, lib.hostaccess_last_error().decode())
fast_read("after wake")
print("%d failed" % failed)
sys.exit(1 if failed else 0)
