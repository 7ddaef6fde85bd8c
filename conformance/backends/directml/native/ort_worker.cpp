// ort_worker: ONNX Runtime's DirectML execution provider, driven over the same framed protocol as dml_runner.
//
// One process, one D3D12 device, one DirectML device and one command queue, handed to every session
// (OrtDmlApi::SessionOptionsAppendExecutionProvider_DML1), and descriptor heaps recycled between sessions
// (HeapPool): under Wine a session then costs milliseconds, where a device each cost five seconds and a
// heap each one to six.  The Python side builds the models and batches the cases; this program
// only creates sessions (DmlExecutionProvider alone, CPU fallback disabled), runs them and returns the
// outputs' bytes.  A session that ONNX Runtime refuses is reported with ORT's own message.
//
// --adapter/--adapter-kind choose the device as dml_runner does (dml_common.h's Device); with --adapter-kind the
// worker also asks ONNX Runtime's own selection (its DXCore device filter, --ort-performance-preference) which
// adapter it would take, and "info" says (probe_selection).
//
// Requests (besides info and quit):
//   {"op":"session","graph_optimization_level":N,"disable_dml_graph_fusion":B,"recycle_descriptor_heaps":B}
//                                                   payload: a serialized ONNX model
//                                                   -> {"session":id,"create_s","heaps":{...}}
//   {"op":"run","session":id,"inputs":[{"name","type","shape","bytes"}],"outputs":[names]}
//                                                   payload: the inputs' bytes, one after another
//                                                   -> {"outputs":[...],"run_s","heaps":{...}}, the outputs' bytes
//   {"op":"release","session":id}
// "heaps": the descriptor heap counters since the process started (HeapPool, below).
//
// ONNX Runtime's C API headers are not packaged anywhere this builds, so the few OrtApi entries used
// are declared here by slot: OrtApi is a struct of function pointers that ONNX Runtime only ever
// appends to (onnxruntime_c_api.h checks its own offsets with static_asserts), so a slot never moves.

#include "dml_common.h"

namespace {

namespace ort {

struct Status;
struct Env;
struct SessionOptions;
struct Session;
struct Value;
struct MemoryInfo;
struct TypeAndShape;

#define ORT_CALL __stdcall  // ORT_API_CALL on Windows

struct ApiBase {
    const void*(ORT_CALL* GetApi)(uint32_t version);
    const char*(ORT_CALL* GetVersionString)();
};
using GetApiBaseFn = const ApiBase*(ORT_CALL*)();

constexpr uint32_t kApiVersion = 13;  // the oldest OrtApi that has every slot below

// Slots in OrtApi (onnxruntime_c_api.h, `struct OrtApi`), counted from 0.
enum Slot : size_t {
    GetErrorCode = 1,
    GetErrorMessage = 2,
    CreateEnv = 3,
    CreateSessionFromArray = 8,
    Run = 9,
    CreateSessionOptions = 10,
    SetSessionExecutionMode = 13,
    DisableMemPattern = 17,
    SetSessionLogSeverityLevel = 22,
    SetSessionGraphOptimizationLevel = 23,
    SetIntraOpNumThreads = 24,
    SetInterOpNumThreads = 25,
    CreateTensorWithDataAsOrtValue = 49,
    GetTensorMutableData = 51,
    GetTensorElementType = 60,
    GetDimensionsCount = 61,
    GetDimensions = 62,
    GetTensorTypeAndShape = 65,
    CreateCpuMemoryInfo = 69,
    ReleaseEnv = 92,
    ReleaseStatus = 93,
    ReleaseMemoryInfo = 94,
    ReleaseSession = 95,
    ReleaseValue = 96,
    ReleaseTensorTypeAndShapeInfo = 99,
    ReleaseSessionOptions = 100,
    AddSessionConfigEntry = 130,
    GetExecutionProviderApi = 195,
};
// Slots in OrtDmlApi (dml_provider_factory.h): slots 0-4 exist in every runtime that has it, 5-6 since 1.17.
constexpr size_t kAppendDml1 = 1;  // SessionOptionsAppendExecutionProvider_DML1(options, IDMLDevice*, queue)
constexpr size_t kAppendDml2 = 5;  // SessionOptionsAppendExecutionProvider_DML2(options, OrtDmlDeviceOptions*)
constexpr size_t kGetDmlDevice = 6;  // GetDMLDevice(options, IDMLDevice**): the provider's device, not AddRef'd

// OrtDmlDeviceOptions: OrtDmlPerformancePreference (Default 0, HighPerformance 1, MinimumPower 2) and
// OrtDmlDeviceFilter (Gpu 1, Npu 2, Any 0xffffffff; Npu and Any only in runtimes built with NPU enumeration).
struct DmlDeviceOptions {
    uint32_t preference;
    uint32_t filter;
};

constexpr int kLogError = 3;       // ORT_LOGGING_LEVEL_ERROR
constexpr int kSequential = 0;     // ORT_SEQUENTIAL
constexpr int kDeviceAllocator = 0;  // OrtDeviceAllocator
constexpr int kMemTypeDefault = 0;   // OrtMemTypeDefault

struct OrtError {  // a failed OrtApi call: ORT's message and code, and which call
    std::string call;
    int code;
    std::string message;
};

class Api {
public:
    Api(const std::wstring& dll) : path_(dll) {
        module_ = LoadLibraryW(dll.c_str());
        if (!module_) throw HrError{HRESULT_FROM_WIN32(GetLastError()), "LoadLibraryW(onnxruntime.dll)"};
        auto base_fn = reinterpret_cast<GetApiBaseFn>(GetProcAddress(module_, "OrtGetApiBase"));
        if (!base_fn) throw HrError{HRESULT_FROM_WIN32(GetLastError()), "GetProcAddress(OrtGetApiBase)"};
        const ApiBase* base = base_fn();
        version_ = base->GetVersionString();
        table_ = static_cast<void* const*>(base->GetApi(kApiVersion));
        if (!table_) throw HrError{E_NOINTERFACE, "OrtApiBase::GetApi(" + std::to_string(kApiVersion) + ")"};
    }

    template <typename Fn>
    Fn at(Slot slot) const {
        return reinterpret_cast<Fn>(table_[slot]);
    }

    // Call an entry that returns OrtStatus*; a non-null status becomes an OrtError naming the call.
    template <typename... Args>
    void call(Slot slot, const char* name, Args... args) const {
        using Fn = Status*(ORT_CALL*)(Args...);
        Status* status = at<Fn>(slot)(args...);
        if (status) fail(status, name);
    }

    [[noreturn]] void fail(Status* status, const std::string& name) const {
        int code = at<int(ORT_CALL*)(const Status*)>(GetErrorCode)(status);
        std::string message = at<const char*(ORT_CALL*)(const Status*)>(GetErrorMessage)(status);
        at<void(ORT_CALL*)(Status*)>(ReleaseStatus)(status);
        throw OrtError{name, code, message};
    }

    template <typename T>
    void release(Slot slot, T* object) const {
        if (object) at<void(ORT_CALL*)(T*)>(slot)(object);
    }

    const std::string& version() const { return version_; }
    const std::wstring& path() const { return path_; }

private:
    std::wstring path_;
    HMODULE module_ = nullptr;
    void* const* table_ = nullptr;
    std::string version_;
};

size_t element_size(int type) {  // ONNXTensorElementDataType -> bytes
    switch (type) {
        case 2: case 3: case 9: return 1;             // UINT8, INT8, BOOL
        case 4: case 5: case 10: case 16: return 2;   // UINT16, INT16, FLOAT16, BFLOAT16
        case 1: case 6: case 12: return 4;            // FLOAT, INT32, UINT32
        case 7: case 11: case 13: return 8;           // INT64, DOUBLE, UINT64
        default: throw ProtocolError{"unsupported tensor element type " + std::to_string(type)};
    }
}

}  // namespace ort

// Descriptor heaps, recycled between sessions.
//
// Measured under Wine (vkd3d 1.6 on lavapipe): each session's DirectML provider creates a shader-visible
// CBV/SRV/UAV heap of 2048 descriptors (the DescriptorPool of ORT's DmlCommandRecorder), and a run that
// binds more than about 1,400 tensors another; vkd3d takes 1-6 s and about 1.5 GB for each, whatever its
// size: nearly the whole cost of a session, ORT's own work being milliseconds.  So the worker answers
// ID3D12Device::CreateDescriptorHeap itself: a heap that a released session gave back is handed to the
// next caller asking for the same description, once the queue has finished the work submitted before.  D3D12 leaves a new heap's
// descriptors undefined, so stale ones are what any heap may hold: the provider writes every descriptor
// it binds.  The device, DirectML and ORT's settings are untouched; a session request with
// "recycle_descriptor_heaps": false has its heaps created anew, as ONNX Runtime alone does.
struct Lock {  // mingw-w64 with win32 threads has no std::mutex
    explicit Lock(SRWLOCK* l) : l_(l) { AcquireSRWLockExclusive(l_); }
    ~Lock() { ReleaseSRWLockExclusive(l_); }
    Lock(const Lock&) = delete;
    Lock& operator=(const Lock&) = delete;
    SRWLOCK* l_;
};

class HeapPool {
public:
    static HeapPool& get() {
        static HeapPool pool;
        return pool;
    }

    // Every interface of one D3D12 device object shares one vtable; CreateDescriptorHeap is its
    // slot 14 (IUnknown 3, ID3D12Object 4, then GetNodeCount .. CheckFeatureSupport: d3d12.idl's
    // order, which COM never changes).  Patched once, for the process's only device.  Where the
    // vtable cannot be written, heaps are simply not recycled (`status` says why).
    void install(ID3D12Device* device, ID3D12CommandQueue* queue) {
        if (real_) return;
        device_ = device;
        queue_ = queue;
        void** vtable = *reinterpret_cast<void***>(device);
        DWORD old = 0;
        if (!VirtualProtect(&vtable[kSlot], sizeof(void*), PAGE_READWRITE, &old)) {
            status = "not installed: VirtualProtect(ID3D12Device vtable) returned " +
                     hex32(static_cast<uint32_t>(HRESULT_FROM_WIN32(GetLastError())));
            return;
        }
        real_ = reinterpret_cast<CreateFn>(vtable[kSlot]);
        vtable[kSlot] = reinterpret_cast<void*>(&HeapPool::create_hook);
        VirtualProtect(&vtable[kSlot], sizeof(void*), old, &old);
        status = "installed";
    }

    bool recycle = true;
    std::string status = "not installed";

    // Release the heaps nobody uses beyond the `keep` most recent: each holds its memory (~1.5 GB under vkd3d).
    void trim(size_t keep) {
        Lock lock(&lock_);
        size_t kept = 0;
        for (size_t i = entries_.size(); i-- > 0;) {
            if (!free(entries_[i])) continue;
            if (kept < keep) {
                ++kept;
                continue;
            }
            if (FAILED(wait_idle())) return;  // the GPU may still read it: keep it
            entries_[i].heap->Release();
            entries_.erase(entries_.begin() + static_cast<std::ptrdiff_t>(i));
        }
    }

    uint64_t created = 0, reused = 0;
    size_t lent_peak = 0;  // the most recycled heaps in use at once since it was last reset (each session)
    double create_s = 0;  // in the real CreateDescriptorHeap

private:
    using CreateFn = HRESULT(STDMETHODCALLTYPE*)(ID3D12Device*, const D3D12_DESCRIPTOR_HEAP_DESC*, REFIID, void**);
    static constexpr size_t kSlot = 14;
    struct Entry {
        ID3D12DescriptorHeap* heap;  // the pool's own reference
        D3D12_DESCRIPTOR_HEAP_DESC desc;
    };

    // Only the pool holds it (AddRef returns the new count: the pool's reference and this probe's).
    static bool free(const Entry& e) {
        ULONG count = e.heap->AddRef();
        e.heap->Release();
        return count == 2;
    }

    static bool same(const D3D12_DESCRIPTOR_HEAP_DESC& a, const D3D12_DESCRIPTOR_HEAP_DESC& b) {
        return a.Type == b.Type && a.NumDescriptors == b.NumDescriptors && a.Flags == b.Flags &&
               a.NodeMask == b.NodeMask;
    }

    static HRESULT STDMETHODCALLTYPE create_hook(ID3D12Device* device, const D3D12_DESCRIPTOR_HEAP_DESC* desc,
                                                 REFIID riid, void** out) {
        return get().create(device, desc, riid, out);
    }

    HRESULT create(ID3D12Device* device, const D3D12_DESCRIPTOR_HEAP_DESC* desc, REFIID riid, void** out) {
        if (!recycle || !desc || !out) return timed(device, desc, riid, out);
        Lock lock(&lock_);
        ID3D12DescriptorHeap* heap = nullptr;
        for (auto& e : entries_) {
            // Handed out again only once the queue has finished all work submitted so far (a released session's
            // included): a heap the GPU may still read is never written by its next user.
            if (same(e.desc, *desc) && free(e) && SUCCEEDED(wait_idle())) {
                heap = e.heap;
                ++reused;
                break;
            }
        }
        if (!heap) {
            HRESULT hr = timed(device, desc, __uuidof(ID3D12DescriptorHeap), reinterpret_cast<void**>(&heap));
            if (FAILED(hr)) return hr;
            entries_.push_back(Entry{heap, *desc});
        }
        HRESULT hr = heap->QueryInterface(riid, out);
        size_t lent = 0;
        for (auto& e : entries_) lent += free(e) ? 0 : 1;
        lent_peak = std::max(lent_peak, lent);
        return hr;
    }

    HRESULT timed(ID3D12Device* device, const D3D12_DESCRIPTOR_HEAP_DESC* desc, REFIID riid, void** out) {
        LARGE_INTEGER t0, t1, freq;
        QueryPerformanceFrequency(&freq);
        QueryPerformanceCounter(&t0);
        HRESULT hr = real_(device, desc, riid, out);
        QueryPerformanceCounter(&t1);
        ++created;
        create_s += static_cast<double>(t1.QuadPart - t0.QuadPart) / freq.QuadPart;
        return hr;
    }

    // Signal the queue and wait for it: everything submitted before has finished.
    HRESULT wait_idle() {
        HRESULT hr = S_OK;
        if (!fence_) {
            hr = device_->CreateFence(0, D3D12_FENCE_FLAG_NONE, __uuidof(ID3D12Fence), fence_.put_void());
            if (FAILED(hr)) return hr;
            event_ = CreateEventW(nullptr, FALSE, FALSE, nullptr);
            if (!event_) return HRESULT_FROM_WIN32(GetLastError());
        }
        hr = queue_->Signal(fence_.p, ++fence_value_);
        if (SUCCEEDED(hr) && fence_->GetCompletedValue() < fence_value_) {
            hr = fence_->SetEventOnCompletion(fence_value_, event_);
            if (SUCCEEDED(hr)) WaitForSingleObject(event_, INFINITE);
        }
        return hr;
    }

    CreateFn real_ = nullptr;
    ID3D12Device* device_ = nullptr;  // the Device's, which outlives the pool's use of them
    ID3D12CommandQueue* queue_ = nullptr;
    Com<ID3D12Fence> fence_;
    HANDLE event_ = nullptr;
    uint64_t fence_value_ = 0;
    SRWLOCK lock_ = SRWLOCK_INIT;
    std::vector<Entry> entries_;
};

class Worker : public Program {
public:
    Worker(Device& device, const std::wstring& ort_dll, const std::string& kind, const std::string& preference)
        : dev_(device), api_(ort_dll) {
        try {
            init();
            if (!kind.empty()) probe_selection(kind, preference.empty() ? "default" : preference);
        } catch (const ort::OrtError& e) {  // start-up failures are reported as the first frame
            throw HrError{E_FAIL, e.call + ": " + e.message};
        }
    }

    void init() {
        HeapPool::get().install(dev_.d3d12(), dev_.queue());
        api_.call(ort::CreateEnv, "OrtApi::CreateEnv", ort::kLogError, "dml-conformance", &env_);
        const void* dml = nullptr;
        api_.call(ort::GetExecutionProviderApi, "OrtApi::GetExecutionProviderApi(\"DML\")", "DML", ort::kApiVersion,
                  &dml);
        if (!dml) throw HrError{E_NOINTERFACE, "OrtApi::GetExecutionProviderApi(\"DML\") (not built with DirectML)"};
        dml_api_ = static_cast<void* const*>(dml);
        api_.call(ort::CreateCpuMemoryInfo, "OrtApi::CreateCpuMemoryInfo", ort::kDeviceAllocator,
                  ort::kMemTypeDefault, &cpu_);
    }

    ~Worker() override {
        for (auto& kv : sessions_) release(kv.second);
        api_.release(ort::ReleaseMemoryInfo, cpu_);
        api_.release(ort::ReleaseEnv, env_);
    }

    std::string info() override {
        JsonWriter w;
        dev_.describe(w);
        w.str("descriptor_heap_pool", HeapPool::get().status)
            .str("onnxruntime_version", api_.version())
            .str("onnxruntime_dll", utf8(api_.path().c_str()))
            .str("onnxruntime_dll_version", file_version(api_.path()));
        if (!ort_selection_.empty()) w.str("ort_device_selection", ort_selection_);
        return w.done();
    }

    std::string removed_reason() override { return dev_.removed_reason(); }

    void handle(const std::string& op, const Json& req, const std::vector<unsigned char>& payload) override {
        try {
            if (op == "session") return create(req, payload);
            if (op == "run") return run(req, payload);
            if (op == "release") {
                auto it = sessions_.find(req.at("session").integer("session"));
                if (it != sessions_.end()) {
                    release(it->second);
                    sessions_.erase(it);
                    HeapPool::get().trim(kKeptHeaps);
                }
                write_frame(JsonWriter().str("status", "ok").done());
                return;
            }
            throw ProtocolError{"unknown op '" + op + "'"};
        } catch (const ort::OrtError& e) {
            write_frame(JsonWriter()
                            .str("status", "failed")
                            .str("call", e.call)
                            .u64("code", static_cast<uint64_t>(e.code))
                            .str("message", e.message)
                            .done());
        }
    }

private:
    struct Open {
        ort::Session* session = nullptr;
        ort::SessionOptions* options = nullptr;  // kept until the session is released: ORT may still use it
    };

    Device& dev_;
    ort::Api api_;
    ort::Env* env_ = nullptr;
    ort::MemoryInfo* cpu_ = nullptr;
    void* const* dml_api_ = nullptr;
    std::map<int64_t, Open> sessions_;
    int64_t next_ = 1;
    // Free heaps kept for the next session after a release: a session takes one (the Python side keeps a batch's
    // tensors under what one heap holds); one that needed more gives the others back to the system.
    static constexpr size_t kKeptHeaps = 1;

    std::string ort_selection_;  // what ONNX Runtime's own device selection chose (probe_selection)

    // ONNX Runtime's own choice for this kind: OrtDmlApi::SessionOptionsAppendExecutionProvider_DML2 with its
    // device filter and performance preference, as an application selects an NPU.  ORT lists the adapters through
    // DXCore and creates its own device (an NPU's at 1_0_CORE, else 1_0_GENERIC).  Sessions then run on this
    // worker's device (shared, DML1), which Device chose by the same rule; this records whether ORT lands on
    // the same adapter, or why it cannot (under Wine: vkd3d refuses the compute-only levels).
    void probe_selection(const std::string& kind, const std::string& preference) {
        ort::DmlDeviceOptions options{preference == "high_performance" ? 1u : preference == "minimum_power" ? 2u : 0u,
                                      kind == "npu" ? 2u : kind == "any" ? 0xffffffffu : 1u};
        std::string what = "OrtDmlApi::SessionOptionsAppendExecutionProvider_DML2(device filter " + kind +
                           ", performance preference " + preference + ")";
        ort::SessionOptions* so = nullptr;
        api_.call(ort::CreateSessionOptions, "OrtApi::CreateSessionOptions", &so);
        try {
            using Append2 = ort::Status*(ORT_CALL*)(ort::SessionOptions*, ort::DmlDeviceOptions*);
            ort::Status* status = reinterpret_cast<Append2>(dml_api_[ort::kAppendDml2])(so, &options);
            if (status) api_.fail(status, what);
            IDMLDevice* dml = nullptr;
            using GetDevice = ort::Status*(ORT_CALL*)(ort::SessionOptions*, IDMLDevice**);
            status = reinterpret_cast<GetDevice>(dml_api_[ort::kGetDmlDevice])(so, &dml);
            if (status) api_.fail(status, "OrtDmlApi::GetDMLDevice");
            if (!dml) throw ort::OrtError{"OrtDmlApi::GetDMLDevice", 0, "no DirectML device"};
            Com<ID3D12Device> d3d;
            CHECK(dml->GetParentDevice(__uuidof(ID3D12Device), d3d.put_void()), "IDMLDevice::GetParentDevice");
            LUID luid{};
            d3d->GetAdapterLuid(&luid);
            const LUID& mine = dev_.adapter().luid;
            bool same = luid.LowPart == mine.LowPart && luid.HighPart == mine.HighPart;
            char text[40];
            std::snprintf(text, sizeof text, "%08lx:%08lx", static_cast<unsigned long>(luid.HighPart),
                          static_cast<unsigned long>(luid.LowPart));
            ort_selection_ = what + ": adapter LUID " + text +
                             (same ? ", the adapter the sessions run on" : ", NOT the adapter the sessions run on");
        } catch (const ort::OrtError& e) {
            ort_selection_ = what + " failed: " + e.message;
        } catch (const HrError& e) {
            ort_selection_ = what + ": " + e.call + " returned " + hex32(static_cast<uint32_t>(e.hr));
        }
        api_.release(ort::ReleaseSessionOptions, so);
    }

    void release(Open& open) {
        api_.release(ort::ReleaseSession, open.session);
        api_.release(ort::ReleaseSessionOptions, open.options);
        open = Open{};
    }

    // Counters since the worker started: heaps created (and the seconds that took), heaps handed out again.
    static std::string heap_stats() {
        HeapPool& pool = HeapPool::get();
        return JsonWriter()
            .u64("created", pool.created)
            .u64("reused", pool.reused)
            .num("create_s", pool.create_s)
            .u64("lent_peak", pool.lent_peak)
            .done();
    }

    void create(const Json& req, const std::vector<unsigned char>& model) {
        LARGE_INTEGER t0, t1, freq;
        QueryPerformanceFrequency(&freq);
        QueryPerformanceCounter(&t0);
        Open open;
        try {
            api_.call(ort::CreateSessionOptions, "OrtApi::CreateSessionOptions", &open.options);
            // What the DirectML provider requires, and nothing left to the CPU provider.
            api_.call(ort::DisableMemPattern, "OrtApi::DisableMemPattern", open.options);
            api_.call(ort::SetSessionExecutionMode, "OrtApi::SetSessionExecutionMode", open.options, ort::kSequential);
            api_.call(ort::SetIntraOpNumThreads, "OrtApi::SetIntraOpNumThreads", open.options, 1);
            api_.call(ort::SetInterOpNumThreads, "OrtApi::SetInterOpNumThreads", open.options, 1);
            api_.call(ort::SetSessionLogSeverityLevel, "OrtApi::SetSessionLogSeverityLevel", open.options,
                      ort::kLogError);
            HeapPool::get().lent_peak = 0;
            HeapPool::get().recycle =
                !req.has("recycle_descriptor_heaps") || req.at("recycle_descriptor_heaps").b;
            int level = static_cast<int>(req.at("graph_optimization_level").integer("graph_optimization_level"));
            api_.call(ort::SetSessionGraphOptimizationLevel, "OrtApi::SetSessionGraphOptimizationLevel",
                      open.options, level);
            api_.call(ort::AddSessionConfigEntry, "OrtApi::AddSessionConfigEntry", open.options,
                      "session.disable_cpu_ep_fallback", "1");
            // ORT compiles each DirectML partition into one DML graph unless told not to (--ort-dml-graph-fusion off).
            if (req.has("disable_dml_graph_fusion") && req.at("disable_dml_graph_fusion").b)
                api_.call(ort::AddSessionConfigEntry, "OrtApi::AddSessionConfigEntry", open.options,
                          "ep.dml.disable_graph_fusion", "1");
            using AppendFn = ort::Status*(ORT_CALL*)(ort::SessionOptions*, IDMLDevice*, ID3D12CommandQueue*);
            ort::Status* status = reinterpret_cast<AppendFn>(dml_api_[ort::kAppendDml1])(
                open.options, dev_.dml_device(DML_FEATURE_LEVEL_1_0), dev_.queue());
            if (status) api_.fail(status, "OrtDmlApi::SessionOptionsAppendExecutionProvider_DML1");
            api_.call(ort::CreateSessionFromArray, "OrtApi::CreateSessionFromArray", static_cast<const ort::Env*>(env_),
                      static_cast<const void*>(model.data()), model.size(),
                      static_cast<const ort::SessionOptions*>(open.options), &open.session);
        } catch (...) {
            release(open);
            throw;
        }
        QueryPerformanceCounter(&t1);
        int64_t id = next_++;
        sessions_[id] = open;
        write_frame(JsonWriter()
                        .str("status", "ok")
                        .u64("session", static_cast<uint64_t>(id))
                        .num("create_s", static_cast<double>(t1.QuadPart - t0.QuadPart) / freq.QuadPart)
                        .raw("heaps", heap_stats())
                        .done());
    }

    void run(const Json& req, const std::vector<unsigned char>& payload) {
        auto it = sessions_.find(req.at("session").integer("session"));
        if (it == sessions_.end()) throw ProtocolError{"no such session"};
        const Json& inputs = req.at("inputs");
        std::vector<std::string> in_names, out_names;
        std::vector<std::vector<int64_t>> shapes;
        std::vector<ort::Value*> values;
        std::vector<ort::Value*> outputs;
        auto cleanup = [&]() {
            for (auto* v : values) api_.release(ort::ReleaseValue, v);
            for (auto* v : outputs) api_.release(ort::ReleaseValue, v);
        };
        static unsigned char empty_tensor = 0;
        LARGE_INTEGER t0, t1, freq;
        QueryPerformanceFrequency(&freq);
        try {
            size_t at = 0;
            for (const auto& input : inputs.items) {
                in_names.push_back(input.at("name").str("name"));
                std::vector<int64_t> shape;
                for (const auto& d : input.at("shape").items) shape.push_back(d.integer("shape"));
                shapes.push_back(shape);
                size_t bytes = static_cast<size_t>(input.at("bytes").integer("bytes"));
                if (at + bytes > payload.size()) throw ProtocolError{"the inputs' bytes overrun the payload"};
                int type = static_cast<int>(input.at("type").integer("type"));
                ort::element_size(type);
                ort::Value* value = nullptr;
                void* data = bytes ? const_cast<unsigned char*>(payload.data() + at) : &empty_tensor;
                api_.call(ort::CreateTensorWithDataAsOrtValue, "OrtApi::CreateTensorWithDataAsOrtValue",
                          static_cast<const ort::MemoryInfo*>(cpu_), data, bytes,
                          static_cast<const int64_t*>(shapes.back().data()), shapes.back().size(), type, &value);
                values.push_back(value);
                at += bytes;
            }
            for (const auto& name : req.at("outputs").items) out_names.push_back(name.str("outputs"));
            std::vector<const char*> in_ptrs, out_ptrs;
            for (auto& n : in_names) in_ptrs.push_back(n.c_str());
            for (auto& n : out_names) out_ptrs.push_back(n.c_str());
            outputs.assign(out_names.size(), nullptr);
            QueryPerformanceCounter(&t0);
            api_.call(ort::Run, "OrtApi::Run", it->second.session, static_cast<const void*>(nullptr),
                      static_cast<const char* const*>(in_ptrs.data()),
                      static_cast<const ort::Value* const*>(values.data()), values.size(),
                      static_cast<const char* const*>(out_ptrs.data()), out_ptrs.size(), outputs.data());
            QueryPerformanceCounter(&t1);
            std::string meta;
            std::vector<std::pair<const void*, size_t>> bytes_out;
            for (size_t i = 0; i < outputs.size(); ++i) {
                ort::TypeAndShape* info = nullptr;
                api_.call(ort::GetTensorTypeAndShape, "OrtApi::GetTensorTypeAndShape",
                          static_cast<const ort::Value*>(outputs[i]), &info);
                int type = 0;
                size_t rank = 0;
                std::vector<int64_t> dims;
                try {
                    api_.call(ort::GetTensorElementType, "OrtApi::GetTensorElementType",
                              static_cast<const ort::TypeAndShape*>(info), &type);
                    api_.call(ort::GetDimensionsCount, "OrtApi::GetDimensionsCount",
                              static_cast<const ort::TypeAndShape*>(info), &rank);
                    dims.resize(rank);
                    api_.call(ort::GetDimensions, "OrtApi::GetDimensions", static_cast<const ort::TypeAndShape*>(info),
                              dims.data(), rank);
                } catch (...) {
                    api_.release(ort::ReleaseTensorTypeAndShapeInfo, info);
                    throw;
                }
                api_.release(ort::ReleaseTensorTypeAndShapeInfo, info);
                size_t count = 1;
                std::string shape;
                for (int64_t d : dims) {
                    count *= static_cast<size_t>(d);
                    shape += (shape.empty() ? "" : ",") + std::to_string(d);
                }
                size_t nbytes = count * ort::element_size(type);
                void* data = nullptr;
                api_.call(ort::GetTensorMutableData, "OrtApi::GetTensorMutableData", outputs[i], &data);
                bytes_out.emplace_back(data, nbytes);
                meta += (meta.empty() ? "" : ",") + JsonWriter()
                                                        .str("name", out_names[i])
                                                        .u64("type", static_cast<uint64_t>(type))
                                                        .raw("shape", "[" + shape + "]")
                                                        .u64("bytes", nbytes)
                                                        .done();
            }
            write_frame(JsonWriter()
                            .str("status", "ok")
                            .raw("outputs", "[" + meta + "]")
                            .num("run_s", static_cast<double>(t1.QuadPart - t0.QuadPart) / freq.QuadPart)
                            .raw("heaps", heap_stats())
                            .done(),
                        bytes_out);
        } catch (...) {
            cleanup();
            throw;
        }
        cleanup();
    }
};

}  // namespace

int wmain(int argc, wchar_t** argv) {
    return serve(argc, argv, [](const Args& args) -> std::unique_ptr<Program> {
        auto dll = args.count(L"--dml-dll") ? args.at(L"--dml-dll") : L"DirectML.dll";
        auto adapter = args.count(L"--adapter") ? utf8(args.at(L"--adapter").c_str()) : std::string();
        auto kind = args.count(L"--adapter-kind") ? utf8(args.at(L"--adapter-kind").c_str()) : std::string();
        auto ort_dll = args.count(L"--ort-dll") ? args.at(L"--ort-dll") : L"onnxruntime.dll";
        auto preference = args.count(L"--ort-performance-preference")
                              ? utf8(args.at(L"--ort-performance-preference").c_str())
                              : std::string();
        static std::unique_ptr<Device> device;  // outlives the worker that borrows it
        device.reset(new Device(dll, adapter, kind));
        return std::unique_ptr<Program>(new Worker(*device, ort_dll, kind, preference));
    });
}
