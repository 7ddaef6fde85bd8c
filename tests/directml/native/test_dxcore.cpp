// test_dxcore.cpp: a dxcore.dll for Wine (which has none), test scaffolding only.  Built by the tests
// (tests/directml/dxcore_helpers.py) with mingw-w64 into a test folder and put on the Wine process's PATH; never in a wheel,
// never used on Windows, where the real dxcore.dll answers.
//
// It lists DXGI's adapters through DXCore's interfaces, and can present one as compute-only, so that the
// suite's DXCore path, its NPU selection and ONNX Runtime's DirectML device filter run under Wine.
// DML_CONFORMANCE_TEST_DXCORE says what to present: entries "INDEX:KIND" separated by commas, INDEX a DXGI
// adapter index and KIND one of
//   gpu      the attributes D3D12_GRAPHICS, D3D12_CORE_COMPUTE and D3D12_GENERIC_ML (what a GPU has);
//   compute  D3D12_CORE_COMPUTE and D3D12_GENERIC_ML (a compute-only MCDM adapter);
//   npu      D3D12_GENERIC_ML alone (an NPU that only DirectML can use).
// Unset or empty: every DXGI adapter as a gpu.  The same adapter may be listed twice ("0:gpu,0:npu"): the
// second view gets its own LUID (its high part XORed with 0x10000 + the entry's position), so the two are told apart.
//
// D3D12CreateDevice is given the adapter object: every interface other than DXCore's is answered by the DXGI
// adapter behind it (Wine's d3d12 asks for IDXGIAdapter), so the device is the real adapter's.  What this
// cannot change is the level: vkd3d refuses the compute-only levels (1_0_CORE, 1_0_GENERIC); see docs/devices.md.
// Sort() keeps the listed order (a test has one physical adapter); notifications and states are not provided.

#define WIN32_LEAN_AND_MEAN
#define COBJMACROS
#include <windows.h>
#include <dxgi1_4.h>

#ifndef _In_reads_bytes_
#define _In_reads_bytes_(x)
#endif
#ifndef _Field_size_
#define _Field_size_(x)
#endif
#ifndef _COM_Outptr_
#define _COM_Outptr_
#endif
#ifndef _Out_writes_bytes_
#define _Out_writes_bytes_(x)
#endif
#ifndef _In_reads_bytes_opt_
#define _In_reads_bytes_opt_(x)
#endif
#ifndef _In_reads_
#define _In_reads_(x)
#endif
#ifndef _In_opt_
#define _In_opt_
#endif
#include <initguid.h>
#include <dxcore_interface.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

enum Attr : unsigned { kGraphics = 1, kCoreCompute = 2, kGenericMl = 4 };

struct View {  // one adapter as this DXCore presents it
    IDXGIAdapter1* dxgi = nullptr;  // owned by the factory
    DXGI_ADAPTER_DESC1 desc{};
    unsigned attrs = kGraphics | kCoreCompute | kGenericMl;
    LUID luid{};
    uint64_t driver = 0;
    std::string name;
};

bool same(REFIID a, REFIID b) { return std::memcmp(&a, &b, sizeof(GUID)) == 0; }

class Factory;

class Adapter final : public IDXCoreAdapter {
public:
    Adapter(Factory* factory, const View& view);
    ~Adapter();
    HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void** out) override {
        if (!out) return E_POINTER;
        if (same(riid, IID_IUnknown) || same(riid, IID_IDXCoreAdapter)) {
            *out = static_cast<IDXCoreAdapter*>(this);
            AddRef();
            return S_OK;
        }
        return view_.dxgi->QueryInterface(riid, out);  // IDXGIAdapter and Wine's own: the adapter behind
    }
    ULONG STDMETHODCALLTYPE AddRef() override { return InterlockedIncrement(&refs_); }
    ULONG STDMETHODCALLTYPE Release() override {
        ULONG n = InterlockedDecrement(&refs_);
        if (!n) delete this;
        return n;
    }
    bool STDMETHODCALLTYPE IsValid() override { return true; }
    bool STDMETHODCALLTYPE IsAttributeSupported(REFGUID attribute) override {
        return (same(attribute, DXCORE_ADAPTER_ATTRIBUTE_D3D12_GRAPHICS) && (view_.attrs & kGraphics)) ||
               (same(attribute, DXCORE_ADAPTER_ATTRIBUTE_D3D12_CORE_COMPUTE) && (view_.attrs & kCoreCompute)) ||
               (same(attribute, DXCORE_ADAPTER_ATTRIBUTE_D3D12_GENERIC_ML) && (view_.attrs & kGenericMl)) ||
               (same(attribute, DXCORE_HARDWARE_TYPE_ATTRIBUTE_GPU) && (view_.attrs & kGraphics)) ||
               (same(attribute, DXCORE_HARDWARE_TYPE_ATTRIBUTE_NPU) && !(view_.attrs & kGraphics));
    }
    bool STDMETHODCALLTYPE IsPropertySupported(DXCoreAdapterProperty p) override {
        switch (p) {
            case DXCoreAdapterProperty::InstanceLuid:
            case DXCoreAdapterProperty::DriverVersion:
            case DXCoreAdapterProperty::DriverDescription:
            case DXCoreAdapterProperty::HardwareID:
            case DXCoreAdapterProperty::DedicatedAdapterMemory:
            case DXCoreAdapterProperty::DedicatedSystemMemory:
            case DXCoreAdapterProperty::SharedSystemMemory:
            case DXCoreAdapterProperty::IsHardware:
                return true;
            default:
                return false;  // IsIntegrated among them: DXGI does not say
        }
    }
    HRESULT STDMETHODCALLTYPE GetPropertySize(DXCoreAdapterProperty p, size_t* size) override {
        if (!size) return E_POINTER;
        switch (p) {
            case DXCoreAdapterProperty::InstanceLuid: *size = sizeof(LUID); return S_OK;
            case DXCoreAdapterProperty::DriverVersion:
            case DXCoreAdapterProperty::DedicatedAdapterMemory:
            case DXCoreAdapterProperty::DedicatedSystemMemory:
            case DXCoreAdapterProperty::SharedSystemMemory: *size = sizeof(uint64_t); return S_OK;
            case DXCoreAdapterProperty::DriverDescription: *size = view_.name.size() + 1; return S_OK;
            case DXCoreAdapterProperty::HardwareID: *size = sizeof(DXCoreHardwareID); return S_OK;
            case DXCoreAdapterProperty::IsHardware: *size = sizeof(bool); return S_OK;
            default: return DXGI_ERROR_UNSUPPORTED;
        }
    }
    HRESULT STDMETHODCALLTYPE GetProperty(DXCoreAdapterProperty p, size_t size, void* data) override {
        size_t need = 0;
        HRESULT hr = GetPropertySize(p, &need);
        if (FAILED(hr)) return hr;
        if (!data) return E_POINTER;
        if (size < need) return E_INVALIDARG;
        const DXGI_ADAPTER_DESC1& d = view_.desc;
        uint64_t u = 0;
        switch (p) {
            case DXCoreAdapterProperty::InstanceLuid: std::memcpy(data, &view_.luid, need); return S_OK;
            case DXCoreAdapterProperty::DriverVersion: u = view_.driver; break;
            case DXCoreAdapterProperty::DedicatedAdapterMemory: u = d.DedicatedVideoMemory; break;
            case DXCoreAdapterProperty::DedicatedSystemMemory: u = d.DedicatedSystemMemory; break;
            case DXCoreAdapterProperty::SharedSystemMemory: u = d.SharedSystemMemory; break;
            case DXCoreAdapterProperty::DriverDescription: std::memcpy(data, view_.name.c_str(), need); return S_OK;
            case DXCoreAdapterProperty::HardwareID: {
                DXCoreHardwareID id{d.VendorId, d.DeviceId, d.SubSysId, d.Revision};
                std::memcpy(data, &id, need);
                return S_OK;
            }
            case DXCoreAdapterProperty::IsHardware: {
                bool hardware = (d.Flags & DXGI_ADAPTER_FLAG_SOFTWARE) == 0;
                std::memcpy(data, &hardware, need);
                return S_OK;
            }
            default: return DXGI_ERROR_UNSUPPORTED;
        }
        std::memcpy(data, &u, need);
        return S_OK;
    }
    bool STDMETHODCALLTYPE IsQueryStateSupported(DXCoreAdapterState) override { return false; }
    HRESULT STDMETHODCALLTYPE QueryState(DXCoreAdapterState, size_t, const void*, size_t, void*) override {
        return DXGI_ERROR_UNSUPPORTED;
    }
    bool STDMETHODCALLTYPE IsSetStateSupported(DXCoreAdapterState) override { return false; }
    HRESULT STDMETHODCALLTYPE SetState(DXCoreAdapterState, size_t, const void*, size_t, const void*) override {
        return DXGI_ERROR_UNSUPPORTED;
    }
    HRESULT STDMETHODCALLTYPE GetFactory(REFIID riid, void** out) override;

private:
    LONG refs_ = 1;
    Factory* factory_;
    View view_;
};

class List final : public IDXCoreAdapterList {
public:
    List(Factory* factory, std::vector<const View*> views);
    ~List();
    HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void** out) override {
        if (!out) return E_POINTER;
        if (same(riid, IID_IUnknown) || same(riid, IID_IDXCoreAdapterList)) {
            *out = static_cast<IDXCoreAdapterList*>(this);
            AddRef();
            return S_OK;
        }
        *out = nullptr;
        return E_NOINTERFACE;
    }
    ULONG STDMETHODCALLTYPE AddRef() override { return InterlockedIncrement(&refs_); }
    ULONG STDMETHODCALLTYPE Release() override {
        ULONG n = InterlockedDecrement(&refs_);
        if (!n) delete this;
        return n;
    }
    HRESULT STDMETHODCALLTYPE GetAdapter(uint32_t index, REFIID riid, void** out) override;
    uint32_t STDMETHODCALLTYPE GetAdapterCount() override { return static_cast<uint32_t>(views_.size()); }
    bool STDMETHODCALLTYPE IsStale() override { return false; }
    HRESULT STDMETHODCALLTYPE GetFactory(REFIID riid, void** out) override;
    HRESULT STDMETHODCALLTYPE Sort(uint32_t, const DXCoreAdapterPreference*) override { return S_OK; }
    bool STDMETHODCALLTYPE IsAdapterPreferenceSupported(DXCoreAdapterPreference p) override {
        return p == DXCoreAdapterPreference::Hardware || p == DXCoreAdapterPreference::MinimumPower ||
               p == DXCoreAdapterPreference::HighPerformance;
    }

private:
    LONG refs_ = 1;
    Factory* factory_;
    std::vector<const View*> views_;
};

class Factory final : public IDXCoreAdapterFactory {
public:
    HRESULT init() {
        HRESULT hr = CreateDXGIFactory1(__uuidof(IDXGIFactory1), reinterpret_cast<void**>(&dxgi_));
        if (FAILED(hr)) return hr;
        std::vector<IDXGIAdapter1*> found;
        for (UINT i = 0;; ++i) {
            IDXGIAdapter1* a = nullptr;
            hr = dxgi_->EnumAdapters1(i, &a);
            if (hr == DXGI_ERROR_NOT_FOUND) break;
            if (FAILED(hr)) return hr;
            found.push_back(a);
        }
        adapters_ = found;
        const char* spec = std::getenv("DML_CONFORMANCE_TEST_DXCORE");
        std::string text = spec ? spec : "";
        if (text.empty())
            for (size_t i = 0; i < found.size(); ++i) text += (i ? "," : "") + std::to_string(i) + ":gpu";
        size_t start = 0;
        while (start < text.size()) {
            size_t end = text.find(',', start);
            if (end == std::string::npos) end = text.size();
            std::string entry = text.substr(start, end - start);
            start = end + 1;
            size_t colon = entry.find(':');
            if (colon == std::string::npos) return E_INVALIDARG;
            unsigned index = static_cast<unsigned>(std::strtoul(entry.substr(0, colon).c_str(), nullptr, 10));
            std::string kind = entry.substr(colon + 1);
            if (index >= found.size()) return DXGI_ERROR_NOT_FOUND;
            View v;
            v.dxgi = found[index];
            hr = v.dxgi->GetDesc1(&v.desc);
            if (FAILED(hr)) return hr;
            LARGE_INTEGER umd{};
            if (SUCCEEDED(v.dxgi->CheckInterfaceSupport(__uuidof(IDXGIDevice), &umd)))
                v.driver = static_cast<uint64_t>(umd.QuadPart);
            v.luid = v.desc.AdapterLuid;
            bool repeated = false;
            for (const auto& o : views_) repeated = repeated || o.dxgi == v.dxgi;
            if (repeated) v.luid.HighPart ^= static_cast<LONG>(0x10000 + views_.size());
            char name[600];
            WideCharToMultiByte(CP_UTF8, 0, v.desc.Description, -1, name, sizeof name, nullptr, nullptr);
            v.name = name;
            if (kind == "gpu") {
                v.attrs = kGraphics | kCoreCompute | kGenericMl;
            } else if (kind == "compute") {
                v.attrs = kCoreCompute | kGenericMl;
                v.name += " (test DXCore: compute-only)";
            } else if (kind == "npu") {
                v.attrs = kGenericMl;
                v.name += " (test DXCore: NPU, GENERIC_ML only)";
            } else {
                return E_INVALIDARG;
            }
            views_.push_back(v);
        }
        return S_OK;
    }
    ~Factory() {
        for (auto* a : adapters_) a->Release();
        if (dxgi_) dxgi_->Release();
    }
    HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void** out) override {
        if (!out) return E_POINTER;
        if (same(riid, IID_IUnknown) || same(riid, IID_IDXCoreAdapterFactory)) {
            *out = static_cast<IDXCoreAdapterFactory*>(this);
            AddRef();
            return S_OK;
        }
        *out = nullptr;
        return E_NOINTERFACE;
    }
    ULONG STDMETHODCALLTYPE AddRef() override { return InterlockedIncrement(&refs_); }
    ULONG STDMETHODCALLTYPE Release() override {
        ULONG n = InterlockedDecrement(&refs_);
        if (!n) delete this;
        return n;
    }
    HRESULT STDMETHODCALLTYPE CreateAdapterList(uint32_t count, const GUID* attributes, REFIID riid, void** out) override {
        if (!out) return E_POINTER;
        *out = nullptr;
        if (count && !attributes) return E_INVALIDARG;
        std::vector<const View*> chosen;
        for (const auto& v : views_) {
            Adapter probe(this, v);  // on the stack: attribute checks only
            probe.AddRef();          // never reaches zero here
            bool all = true;
            for (uint32_t i = 0; i < count; ++i) all = all && probe.IsAttributeSupported(attributes[i]);
            if (all) chosen.push_back(&v);
        }
        List* list = new List(this, chosen);
        HRESULT hr = list->QueryInterface(riid, out);
        list->Release();
        return hr;
    }
    HRESULT STDMETHODCALLTYPE GetAdapterByLuid(const LUID& luid, REFIID riid, void** out) override {
        if (!out) return E_POINTER;
        *out = nullptr;
        for (const auto& v : views_)
            if (v.luid.LowPart == luid.LowPart && v.luid.HighPart == luid.HighPart) return adapter(v, riid, out);
        return DXGI_ERROR_NOT_FOUND;
    }
    bool STDMETHODCALLTYPE IsNotificationTypeSupported(DXCoreNotificationType) override { return false; }
    HRESULT STDMETHODCALLTYPE RegisterEventNotification(IUnknown*, DXCoreNotificationType, PFN_DXCORE_NOTIFICATION_CALLBACK,
                                                        void*, uint32_t*) override {
        return DXGI_ERROR_UNSUPPORTED;
    }
    HRESULT STDMETHODCALLTYPE UnregisterEventNotification(uint32_t) override { return DXGI_ERROR_UNSUPPORTED; }

    HRESULT adapter(const View& v, REFIID riid, void** out) {
        Adapter* a = new Adapter(this, v);
        HRESULT hr = a->QueryInterface(riid, out);
        a->Release();
        return hr;
    }

private:
    LONG refs_ = 1;
    IDXGIFactory1* dxgi_ = nullptr;
    std::vector<IDXGIAdapter1*> adapters_;
    std::vector<View> views_;
};

Adapter::Adapter(Factory* factory, const View& view) : factory_(factory), view_(view) {
    factory_->AddRef();
    view_.dxgi->AddRef();
}
Adapter::~Adapter() {
    view_.dxgi->Release();
    factory_->Release();
}
HRESULT Adapter::GetFactory(REFIID riid, void** out) { return factory_->QueryInterface(riid, out); }

List::List(Factory* factory, std::vector<const View*> views) : factory_(factory), views_(std::move(views)) {
    factory_->AddRef();
}
List::~List() { factory_->Release(); }
HRESULT List::GetAdapter(uint32_t index, REFIID riid, void** out) {
    if (!out) return E_POINTER;
    *out = nullptr;
    if (index >= views_.size()) return E_INVALIDARG;
    return factory_->adapter(*views_[index], riid, out);
}
HRESULT List::GetFactory(REFIID riid, void** out) { return factory_->QueryInterface(riid, out); }

}  // namespace

extern "C" __declspec(dllexport) HRESULT WINAPI DXCoreCreateAdapterFactory(REFIID riid, void** out) {
    if (!out) return E_POINTER;
    *out = nullptr;
    Factory* factory = new Factory();
    HRESULT hr = factory->init();
    if (SUCCEEDED(hr)) hr = factory->QueryInterface(riid, out);
    factory->Release();
    return hr;
}
