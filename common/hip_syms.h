/* Every HIP entry point the hip backend resolves, as one list: REQ for the
 * ones it cannot open without, OPT for the rest. Include after
 * <hip/hip_runtime_api.h>: expanded there, each name becomes the one that
 * release's header maps it to (hipGetDeviceProperties -> ...R0600 in 6.x),
 * which is the name looked up in libamdhip64 — by the backend, and by
 * make hip-matrix (tools/hip_entry_points.c) in each release's runtime. */
#ifndef HA_HIP_SYMS_H
#define HA_HIP_SYMS_H

#define HIP_SYMS(REQ, OPT)                                                                     \
    REQ(hipGetDeviceCount) REQ(hipSetDevice) REQ(hipMemcpy) REQ(hipMemGetInfo)                  \
    OPT(hipInit) OPT(hipRuntimeGetVersion) OPT(hipDriverGetVersion) OPT(hipGetErrorName)        \
    OPT(hipDeviceGetName) OPT(hipDeviceTotalMem) OPT(hipDeviceGetAttribute)                     \
    OPT(hipDeviceGetPCIBusId) OPT(hipGetDeviceProperties) OPT(hipStreamCreateWithFlags)         \
    OPT(hipStreamDestroy) OPT(hipStreamSynchronize) OPT(hipMemcpyAsync) OPT(hipDeviceSynchronize) \
    OPT(hipMalloc)                                                                              \
    OPT(hipFree) OPT(hipHostMalloc) OPT(hipHostFree) OPT(hipMallocManaged)                      \
    OPT(hipPointerGetAttributes) OPT(hipPointerGetAttribute) OPT(hipDrvPointerGetAttributes)    \
    OPT(hipMemGetAccess) OPT(hipMemRetainAllocationHandle) OPT(hipMemGetAddressRange)           \
    OPT(hipMemGetAllocationGranularity) OPT(hipMemAddressReserve) OPT(hipMemAddressFree)        \
    OPT(hipMemCreate) OPT(hipMemRelease) OPT(hipMemMap) OPT(hipMemUnmap) OPT(hipMemSetAccess)        \
    OPT(hipMemExportToShareableHandle) OPT(hipMemImportFromShareableHandle) OPT(hipHostRegister)    \
    OPT(hipHostUnregister) OPT(hipMallocAsync) OPT(hipFreeAsync) OPT(hipExtMallocWithFlags)       \
    OPT(hipEventCreateWithFlags) OPT(hipEventRecord) OPT(hipEventSynchronize) OPT(hipEventDestroy)

#endif
