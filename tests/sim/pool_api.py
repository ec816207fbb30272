"""The pool library's C API (what vLLM-style callers use through ctypes),
over the sim backend: last_error kept until read and per thread, the default tag,
discard, the tag queries, tag lists of any length, and the refusals. Prints one line per check; exits 1 on the
first that fails. Run by tests/integration/test_pool.c."""
import ctypes
import os
import sys
import threading

lib = ctypes.CDLL(sys.argv[1])
lib.my_malloc.restype = ctypes.c_void_p
lib.my_malloc.argtypes = [ctypes.c_ssize_t, ctypes.c_int, ctypes.c_void_p]
lib.hostaccess_last_error.restype = ctypes.c_char_p
lib.hostaccess_tag_bytes.restype = ctypes.c_longlong
lib.hostaccess_mapped_bytes.restype = ctypes.c_size_t


def check(what, cond):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        sys.exit(1)


def err():
    return lib.hostaccess_last_error().decode()


def write(ptr, data):
    ctypes.memmove(ptr, data, len(data))  # sim pool memory is host memory with host access


def read(ptr, n):
    return ctypes.string_at(ptr, n)


assert os.environ.get("HOSTACCESS_BACKEND") == "sim"
d = lib.my_malloc(100000, 0, None)                 # tag "default", as vLLM's
check("an allocation before any set_tag", bool(d))
check("it carries the default tag", lib.hostaccess_tag_bytes(b"default") > 0)
lib.hostaccess_set_tag(b"kv")
k = lib.my_malloc(4096, 0, None)
write(d, b"DEFT")
write(k, b"KVKV")
buf = ctypes.create_string_buffer(64)
check("two tags listed", lib.hostaccess_tags(buf, 64) == 2 and set(buf.value.split(b",")) == {b"default", b"kv"})
check("a buffer too small is an error", lib.hostaccess_tags(buf, 4) < 0 and "buffer" in err())
listed_len = len(b"default,kv")
check("a buffer one byte short (no room for the NUL) is an error",
      lib.hostaccess_tags(buf, listed_len) < 0 and "buffer" in err())
check("a buffer that just holds the list and its NUL is enough", lib.hostaccess_tags(buf, listed_len + 1) == 2)

check("an unknown tag is an error", lib.hostaccess_sleep(b"nope") != 0 and "nope" in err())
check("sleep(''): offloads the default tag and clears the error", lib.hostaccess_sleep(b"") == 0 and err() == "")
check("both tags asleep", lib.hostaccess_tag_asleep(b"default") == 1 and lib.hostaccess_tag_asleep(b"kv") == 1)
check("nothing mapped while asleep", lib.hostaccess_mapped_bytes() == 0)
check("asking about an unknown tag is an error", lib.hostaccess_tag_asleep(b"nope") < 0 and "nope" in err())
check("wake kv alone, error cleared", lib.hostaccess_wake(b"kv") == 0 and err() == "")
check("kv awake, default still asleep", lib.hostaccess_tag_asleep(b"kv") == 0 and lib.hostaccess_tag_asleep(b"default") == 1)
check("kv was not offloaded: its bytes are not the old ones", read(k, 4) != b"KVKV")
check("discarding an awake tag is an error", lib.hostaccess_discard(b"kv") != 0 and "awake" in err())
check("wake the rest", lib.hostaccess_wake(b"") == 0)
check("the default tag's bytes came back", read(d, 4) == b"DEFT")

check("sleep offloading default again", lib.hostaccess_sleep(None) == 0)
check("discard default while asleep", lib.hostaccess_discard(b"default") == 0 and err() == "")
check("wake after discard", lib.hostaccess_wake(b"") == 0)
check("discarded: fresh memory, not the old bytes", read(d, 4) != b"DEFT")
check("a tag too long is refused, and said", lib.hostaccess_set_tag(b"x" * 100) != 0 and "tag" in err())
check("a good set_tag clears it", lib.hostaccess_set_tag(b"kv") == 0 and err() == "")

# Tag lists of any length: every listed tag comes back, none is cut.
lib.hostaccess_wake(b"")
names = [("t%02d_" % i + "x" * 50).encode() for i in range(40)]   # 40 tags, 2,160 bytes listed
ptrs = []
for i, n in enumerate(names):
    lib.hostaccess_set_tag(n)
    p = lib.my_malloc(4096, 0, None)
    write(p, b"T%03d" % i)
    ptrs.append(p)
listed = b",".join(names)
check("a list of 40 long tags is taken whole", lib.hostaccess_sleep(listed) == 0)
check("wake after a 40-tag sleep", lib.hostaccess_wake(b"") == 0)
check("every one of the 40 tags came back", all(read(p, 4) == b"T%03d" % i for i, p in enumerate(ptrs)))
check("an unknown tag among known ones fails, naming it", lib.hostaccess_sleep(listed + b",nobody") != 0 and "nobody" in err())
check("... and changes nothing: all still awake", all(lib.hostaccess_tag_asleep(n) == 0 for n in names))
check("an empty name in a list is refused", lib.hostaccess_sleep(names[0] + b",," + names[1]) != 0 and "empty" in err())
check("... and changes nothing", lib.hostaccess_tag_asleep(names[0]) == 0)

# The error is kept until read, even when a later call succeeds.
check("device -1 is refused", lib.my_malloc(4096, -1, None) is None)
lib.hostaccess_set_tag(b"kv")                      # succeeds
check("the failure outlives a later success", "a device index is 0 or more" in err())
check("... and reads once", err() == "")
check("device -1 is refused again", lib.my_malloc(4096, -1, None) is None)
check("a sleep and a wake that succeed", lib.hostaccess_sleep(b"") == 0 and lib.hostaccess_wake(b"") == 0)
check("the failure outlives them too", "a device index is 0 or more" in err())

# The error is per thread: another thread's failure is its own to read.
check("a failure in this thread", lib.hostaccess_sleep(b"nope-main") != 0)
seen = []
t = threading.Thread(target=lambda: seen.append((lib.hostaccess_sleep(b"nope-thread") != 0, err(), err())))
t.start()
t.join()
check("another thread reads its own failure, once", seen[0][0] and "nope-thread" in seen[0][1] and seen[0][2] == "")
check("... and this thread still reads its own", "nope-main" in err())
check("another device than the pool's is refused", lib.my_malloc(4096, 1, None) is None and "serves device 0" in err())
lib.hostaccess_host_read_u32.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
check("host_read_u32 with no place for the value is an error, not a crash",
      lib.hostaccess_host_read_u32(ptrs[0], None) < 0 and "NULL" in err())
print("pool API over sim: every check passed")
