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

failed = 0


def check(what, ok, detail=""):
    global failed
    failed += not ok
    print("%s %s%s" % ("ok  " if ok else "FAIL", what, ": " + detail if detail else ""))


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
check("sleep", lib.hostaccess_sleep(b"weights") == 0, lib.hostaccess_last_error().decode())
check("wake", lib.hostaccess_wake(b"") == 0, lib.hostaccess_last_error().decode())
fast_read("after wake")
print("%d failed" % failed)
sys.exit(1 if failed else 0)
