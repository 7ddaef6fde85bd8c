// dml_common.h: what the native programs share: the framed protocol, errors that name their call,
// a small JSON reader/writer, and the device: adapter, D3D12 device, compute queue, DirectML.dll
// loaded from a given path and one IDMLDevice per minimum feature level.
//
// A frame is [u32 header length][u64 payload length][JSON header][payload], lengths little-endian.
// Each program includes this once (one translation unit each).
//
// `dml-conformance repro CASE --cpp DIR` copies this file into a standalone reproducer
// (conformance/repro/cpp.py), leaving out the regions between `// repro: omit begin` and
// `// repro: omit end` (the protocol: a reproducer reads no requests); the rest must build there alone.

#pragma once

#define WIN32_LEAN_AND_MEAN
#define NOMINMAX
#define COBJMACROS
// mingw's widl-generated D3D12 headers: methods returning structs take an explicit result pointer, so
// the call matches the MSVC ABI that d3d12.dll and DirectML.dll were built with.
#define WIDL_EXPLICIT_AGGREGATE_RETURNS
#define DML_TARGET_VERSION_USE_LATEST

#include <windows.h>
#include <d3d12.h>
#include <dxgi1_4.h>

#include <fcntl.h>
#include <io.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <algorithm>
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <string>
#include <vector>

// DirectML.h uses SAL annotations that mingw-w64 does not define; they carry no meaning for the compiler.
#ifndef _COM_Outptr_
#define _COM_Outptr_
#endif
#ifndef _COM_Outptr_opt_
#define _COM_Outptr_opt_
#endif
#ifndef _Field_size_
#define _Field_size_(x)
#endif
#ifndef _Field_size_opt_
#define _Field_size_opt_(x)
#endif
#ifndef _Field_size_bytes_
#define _Field_size_bytes_(x)
#endif
#ifndef _Field_z_
#define _Field_z_
#endif
#ifndef _In_reads_
#define _In_reads_(x)
#endif
#ifndef _In_reads_opt_
#define _In_reads_opt_(x)
#endif
#ifndef _In_reads_bytes_opt_
#define _In_reads_bytes_opt_(x)
#endif
#ifndef _Out_writes_bytes_
#define _Out_writes_bytes_(x)
#endif
#ifndef _Out_writes_bytes_opt_
#define _Out_writes_bytes_opt_(x)
#endif
#ifndef _Inout_
#define _Inout_
#endif
#ifndef _In_opt_
#define _In_opt_
#endif
#ifndef _Maybenull_
#define _Maybenull_
#endif
#ifndef _Inexpressible_
#define _Inexpressible_(x)
#endif

#include <DirectML.h>

#ifdef __MINGW32__
// mingw's __uuidof needs the interface ids declared; these are the ids DirectML.h gives.
__CRT_UUID_DECL(IDMLObject, 0xc8263aac, 0x9e0c, 0x4a2d, 0x9b, 0x8e, 0x00, 0x75, 0x21, 0xa3, 0x31, 0x7c)
__CRT_UUID_DECL(IDMLDevice, 0x6dbd6437, 0x96fd, 0x423f, 0xa9, 0x8c, 0xae, 0x5e, 0x7c, 0x2a, 0x57, 0x3f)
__CRT_UUID_DECL(IDMLOperator, 0x26caae7a, 0x3081, 0x4633, 0x95, 0x81, 0x22, 0x6f, 0xbe, 0x57, 0x69, 0x5d)
__CRT_UUID_DECL(IDMLCompiledOperator, 0x6b15e56a, 0xbf5c, 0x4902, 0x92, 0xd8, 0xda, 0x3a, 0x65, 0x0a, 0xfe, 0xa4)
__CRT_UUID_DECL(IDMLOperatorInitializer, 0x427c1113, 0x435c, 0x469c, 0x86, 0x76, 0x4d, 0x5d, 0xd0, 0x72, 0xf8, 0x13)
__CRT_UUID_DECL(IDMLBindingTable, 0x29c687dc, 0xde74, 0x4e3b, 0xab, 0x00, 0x11, 0x68, 0xf2, 0xfc, 0x3c, 0xfc)
__CRT_UUID_DECL(IDMLCommandRecorder, 0xe6857a76, 0x2e3e, 0x4fdd, 0xbf, 0xf4, 0x5d, 0x2b, 0xa1, 0x0f, 0xb4, 0x53)
__CRT_UUID_DECL(IDMLDevice1, 0xa0884f9a, 0xd2be, 0x4355, 0xaa, 0x5d, 0x59, 0x01, 0x28, 0x1a, 0xd1, 0xd2)
#endif

// DXCore's interfaces and attribute GUIDs (dxcore_interface.h: DirectX-Headers beside DirectML.h, or the Windows
// SDK), with the GUIDs defined in this one translation unit.  DXCoreCreateAdapterFactory is looked up at run
// time (dxcore.dll is missing before Windows 10 2004, and under Wine).
#ifndef _In_reads_bytes_
#define _In_reads_bytes_(x)
#endif
#include <initguid.h>
#include <dxcore_interface.h>

namespace {

// ------------------------------------------------------------------------------------------------
// Errors: every failing call is reported with its name and HRESULT.
// ------------------------------------------------------------------------------------------------

struct HrError {
    HRESULT hr;
    std::string call;
};

struct ProtocolError {
    std::string message;
};

void check(HRESULT hr, const char* call) {
    if (FAILED(hr)) throw HrError{hr, call};
}

#define CHECK(expr, name) check((expr), name)

// DirectML runs each operator's CPU side (CreateOperator, compiling, recording) in this process, so a write
// outside one of its allocations damages the process heap.  Windows' heap ends the process when it next meets
// the damage (STATUS_HEAP_CORRUPTION), usually inside the same call; Wine's heap warns and goes on, and a later,
// innocent case crashes.  Validating the heap after each such step blames the damage on the step that made it,
// on both: the process ends as Windows' heap would end it, one line on stderr naming the step.  The line is
// written with WriteFile (nothing allocated from the damaged heap).  A walk of the whole heap costs: the runner
// checks a batch once per phase, and the suite runs the cases of a batch that ends this way alone, each step
// checked, so that the one at fault is named.
[[noreturn]] void heap_corrupt(const std::string& after) {
    std::string line = "the process heap is corrupt after " + after + " (HeapValidate failed): exiting with "
                       "STATUS_HEAP_CORRUPTION as Windows' heap would\n";
    DWORD written = 0;
    WriteFile(GetStdHandle(STD_ERROR_HANDLE), line.data(), static_cast<DWORD>(line.size()), &written, nullptr);
    TerminateProcess(GetCurrentProcess(), 0xC0000374u);  // STATUS_HEAP_CORRUPTION
    ExitProcess(0xC0000374u);  // not reached: TerminateProcess on this process does not return
}

void check_heap(const std::string& after) {
    if (!HeapValidate(GetProcessHeap(), 0, nullptr)) heap_corrupt(after);
}

// The same, `describe` naming the step only once the heap is found corrupt (the runner checks thousands of steps).
template <typename F>
void check_heap_for(F describe) {
    if (!HeapValidate(GetProcessHeap(), 0, nullptr)) heap_corrupt(describe());
}

template <typename T>
struct Com {  // a minimal owning COM pointer
    T* p = nullptr;
    Com() = default;
    Com(const Com&) = delete;
    Com& operator=(const Com&) = delete;
    Com(Com&& o) noexcept : p(o.p) { o.p = nullptr; }
    Com& operator=(Com&& o) noexcept {
        if (this != &o) {
            reset();
            p = o.p;
            o.p = nullptr;
        }
        return *this;
    }
    ~Com() { reset(); }
    void reset() {
        if (p) p->Release();
        p = nullptr;
    }
    T* operator->() const { return p; }
    T** put() {
        reset();
        return &p;
    }
    void** put_void() { return reinterpret_cast<void**>(put()); }
    explicit operator bool() const { return p != nullptr; }
};

std::string hex32(uint32_t v) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%08x", v);
    return buf;
}

std::string utf8(const wchar_t* w) {
    if (!w || !*w) return "";
    int n = WideCharToMultiByte(CP_UTF8, 0, w, -1, nullptr, 0, nullptr, nullptr);
    std::string s(n > 0 ? n - 1 : 0, '\0');
    if (n > 1) WideCharToMultiByte(CP_UTF8, 0, w, -1, &s[0], n, nullptr, nullptr);
    return s;
}

// ------------------------------------------------------------------------------------------------
// A small JSON reader (the request headers) and writer (the responses).
// ------------------------------------------------------------------------------------------------

// repro: omit begin (the JSON reader: a reproducer reads no requests)
struct Json {
    enum Kind { Null, Bool, Number, String, Array, Object } kind = Null;
    bool b = false;
    std::string text;  // a number's literal text, or a string's value
    std::vector<Json> items;
    std::vector<std::pair<std::string, Json>> members;

    const Json* find(const std::string& key) const {
        for (const auto& m : members)
            if (m.first == key) return &m.second;
        return nullptr;
    }
    const Json& at(const std::string& key) const {
        const Json* j = find(key);
        if (!j) throw ProtocolError{"missing field '" + key + "'"};
        return *j;
    }
    bool has(const std::string& key) const {
        const Json* j = find(key);
        return j && j->kind != Null;
    }
    int64_t integer(const std::string& what) const {
        if (kind != Number) throw ProtocolError{what + " is not a number"};
        char* end = nullptr;
        errno = 0;
        long long v = std::strtoll(text.c_str(), &end, 10);
        if (!end || *end) throw ProtocolError{what + " is not an integer: " + text};
        if (errno == ERANGE) throw ProtocolError{what + " does not fit an INT64: " + text};
        return v;
    }
    // The whole UINT64 range (a DML_SCALAR_UNION's bits), which integer() cannot hold past 2^63.
    uint64_t uint64(const std::string& what) const {
        if (kind != Number || text.empty() || text[0] == '-') throw ProtocolError{what + " is not a UINT64: " + text};
        char* end = nullptr;
        errno = 0;
        unsigned long long v = std::strtoull(text.c_str(), &end, 10);
        if (!end || *end || errno == ERANGE) throw ProtocolError{what + " is not a UINT64: " + text};
        return v;
    }
    const std::string& str(const std::string& what) const {
        if (kind != String) throw ProtocolError{what + " is not a string"};
        return text;
    }
};

class JsonReader {
public:
    explicit JsonReader(const std::string& s) : s_(s) {}
    Json parse() {
        Json j = value(0);
        space();
        if (i_ != s_.size()) fail("trailing characters");
        return j;
    }

private:
    const std::string& s_;
    size_t i_ = 0;
    [[noreturn]] void fail(const char* what) { throw ProtocolError{std::string("bad JSON header: ") + what}; }
    void space() {
        while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\r' || s_[i_] == '\t')) ++i_;
    }
    bool eat(char c) {
        space();
        if (i_ < s_.size() && s_[i_] == c) {
            ++i_;
            return true;
        }
        return false;
    }
    Json value(int depth) {
        if (depth > 32) fail("nested too deeply");
        space();
        if (i_ >= s_.size()) fail("unexpected end");
        Json j;
        char c = s_[i_];
        if (c == '{') {
            ++i_;
            j.kind = Json::Object;
            if (eat('}')) return j;
            do {
                space();
                Json key = string_value();
                if (!eat(':')) fail("expected ':'");
                j.members.emplace_back(key.text, value(depth + 1));
            } while (eat(','));
            if (!eat('}')) fail("expected '}'");
        } else if (c == '[') {
            ++i_;
            j.kind = Json::Array;
            if (eat(']')) return j;
            do {
                j.items.push_back(value(depth + 1));
            } while (eat(','));
            if (!eat(']')) fail("expected ']'");
        } else if (c == '"') {
            j = string_value();
        } else if (s_.compare(i_, 4, "true") == 0) {
            i_ += 4;
            j.kind = Json::Bool;
            j.b = true;
        } else if (s_.compare(i_, 5, "false") == 0) {
            i_ += 5;
            j.kind = Json::Bool;
        } else if (s_.compare(i_, 4, "null") == 0) {
            i_ += 4;
        } else {
            size_t start = i_;
            while (i_ < s_.size() && std::strchr("+-0123456789.eE", s_[i_])) ++i_;
            if (start == i_) fail("unexpected character");
            j.kind = Json::Number;
            j.text = s_.substr(start, i_ - start);
        }
        return j;
    }
    Json string_value() {
        if (i_ >= s_.size() || s_[i_] != '"') fail("expected a string");
        ++i_;
        Json j;
        j.kind = Json::String;
        while (i_ < s_.size() && s_[i_] != '"') {
            char c = s_[i_++];
            if (c == '\\') {
                if (i_ >= s_.size()) fail("bad escape");
                char e = s_[i_++];
                switch (e) {
                    case 'n': j.text += '\n'; break;
                    case 't': j.text += '\t'; break;
                    case 'r': j.text += '\r'; break;
                    case 'b': j.text += '\b'; break;
                    case 'f': j.text += '\f'; break;
                    case 'u': {  // the headers are ASCII; keep \u escapes of ASCII only
                        if (i_ + 4 > s_.size()) fail("bad \\u escape");
                        unsigned v = std::stoul(s_.substr(i_, 4), nullptr, 16);
                        i_ += 4;
                        j.text += v < 0x80 ? static_cast<char>(v) : '?';
                        break;
                    }
                    default: j.text += e;
                }
            } else {
                j.text += c;
            }
        }
        if (i_ >= s_.size()) fail("unterminated string");
        ++i_;
        return j;
    }
};
// repro: omit end

std::string quote(const std::string& s) {
    std::string out = "\"";
    for (unsigned char c : s) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += static_cast<char>(c);
        } else if (c < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", c);
            out += buf;
        } else {
            out += static_cast<char>(c);
        }
    }
    return out + "\"";
}

class JsonWriter {  // builds one flat-ish object: {"a":..., "b":...}
public:
    JsonWriter& raw(const std::string& key, const std::string& json) {
        body_ += (body_.empty() ? "" : ",") + quote(key) + ":" + json;
        return *this;
    }
    JsonWriter& str(const std::string& key, const std::string& v) { return raw(key, quote(v)); }
    JsonWriter& num(const std::string& key, double v) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.17g", v);
        return raw(key, buf);
    }
    JsonWriter& u64(const std::string& key, uint64_t v) { return raw(key, std::to_string(v)); }
    JsonWriter& boolean(const std::string& key, bool v) { return raw(key, v ? "true" : "false"); }
    std::string done() const { return "{" + body_ + "}"; }

private:
    std::string body_;
};

// repro: omit begin (the framed protocol)
// ------------------------------------------------------------------------------------------------
// Framing on stdin/stdout.
// ------------------------------------------------------------------------------------------------

bool read_exact(void* dst, size_t n) {
    auto* p = static_cast<char*>(dst);
    while (n) {
        size_t got = std::fread(p, 1, n, stdin);
        if (got == 0) return false;
        p += got;
        n -= got;
    }
    return true;
}

void put_le(unsigned char* dst, uint64_t v, int n) {
    for (int i = 0; i < n; ++i) dst[i] = static_cast<unsigned char>(v >> (8 * i));
}

uint64_t get_le(const unsigned char* src, int n) {
    uint64_t v = 0;
    for (int i = 0; i < n; ++i) v |= static_cast<uint64_t>(src[i]) << (8 * i);
    return v;
}

void write_frame(const std::string& header, const std::vector<std::pair<const void*, size_t>>& payload = {}) {
    uint64_t total = 0;
    for (const auto& part : payload) total += part.second;
    unsigned char prefix[12];
    put_le(prefix, header.size(), 4);
    put_le(prefix + 4, total, 8);
    std::fwrite(prefix, 1, sizeof prefix, stdout);
    std::fwrite(header.data(), 1, header.size(), stdout);
    for (const auto& part : payload)
        if (part.second) std::fwrite(part.first, 1, part.second, stdout);
    std::fflush(stdout);
}
// repro: omit end

// ------------------------------------------------------------------------------------------------
// Names <-> the header's enumerations (the Python side speaks names; the values come from DirectML.h).
// ------------------------------------------------------------------------------------------------

const std::map<std::string, DML_TENSOR_DATA_TYPE>& data_types() {
    static const std::map<std::string, DML_TENSOR_DATA_TYPE> m = {
        {"FLOAT32", DML_TENSOR_DATA_TYPE_FLOAT32}, {"FLOAT16", DML_TENSOR_DATA_TYPE_FLOAT16},
        {"UINT32", DML_TENSOR_DATA_TYPE_UINT32},   {"UINT16", DML_TENSOR_DATA_TYPE_UINT16},
        {"UINT8", DML_TENSOR_DATA_TYPE_UINT8},     {"INT32", DML_TENSOR_DATA_TYPE_INT32},
        {"INT16", DML_TENSOR_DATA_TYPE_INT16},     {"INT8", DML_TENSOR_DATA_TYPE_INT8},
        {"FLOAT64", DML_TENSOR_DATA_TYPE_FLOAT64}, {"UINT64", DML_TENSOR_DATA_TYPE_UINT64},
        {"INT64", DML_TENSOR_DATA_TYPE_INT64},
    };
    return m;
}

// The levels this header knows (an older Windows SDK's DirectML.h stops earlier).
const std::map<std::string, DML_FEATURE_LEVEL>& feature_levels() {
    static const std::map<std::string, DML_FEATURE_LEVEL> m = {
        {"1.0", DML_FEATURE_LEVEL_1_0}, {"2.0", DML_FEATURE_LEVEL_2_0}, {"2.1", DML_FEATURE_LEVEL_2_1},
        {"3.0", DML_FEATURE_LEVEL_3_0}, {"3.1", DML_FEATURE_LEVEL_3_1}, {"4.0", DML_FEATURE_LEVEL_4_0},
        {"4.1", DML_FEATURE_LEVEL_4_1},
#if DML_TARGET_VERSION >= 0x5000
        {"5.0", DML_FEATURE_LEVEL_5_0},
#endif
#if DML_TARGET_VERSION >= 0x5100
        {"5.1", DML_FEATURE_LEVEL_5_1},
#endif
#if DML_TARGET_VERSION >= 0x5200
        {"5.2", DML_FEATURE_LEVEL_5_2},
#endif
#if DML_TARGET_VERSION >= 0x6000
        {"6.0", DML_FEATURE_LEVEL_6_0},
#endif
#if DML_TARGET_VERSION >= 0x6100
        {"6.1", DML_FEATURE_LEVEL_6_1},
#endif
#if DML_TARGET_VERSION >= 0x6200
        {"6.2", DML_FEATURE_LEVEL_6_2},
#endif
#if DML_TARGET_VERSION >= 0x6300
        {"6.3", DML_FEATURE_LEVEL_6_3},
#endif
#if DML_TARGET_VERSION >= 0x6400
        {"6.4", DML_FEATURE_LEVEL_6_4},
#endif
    };
    return m;
}

template <typename E>
E lookup(const std::map<std::string, E>& table, const std::string& name, const char* what) {
    auto it = table.find(name);
    if (it == table.end()) throw ProtocolError{std::string("unknown ") + what + " '" + name + "'"};
    return it->second;
}

std::string feature_level_name(DML_FEATURE_LEVEL level) {
    for (const auto& kv : feature_levels())
        if (kv.second == level) return kv.first;
    return hex32(static_cast<uint32_t>(level));
}

std::string file_version(const std::wstring& path) {
    DWORD ignored = 0;
    DWORD size = GetFileVersionInfoSizeW(path.c_str(), &ignored);
    if (!size) return "unknown";
    std::vector<unsigned char> data(size);
    if (!GetFileVersionInfoW(path.c_str(), 0, size, data.data())) return "unknown";
    VS_FIXEDFILEINFO* info = nullptr;
    UINT len = 0;
    if (!VerQueryValueW(data.data(), L"\\", reinterpret_cast<void**>(&info), &len) || !info) return "unknown";
    return std::to_string(HIWORD(info->dwFileVersionMS)) + "." + std::to_string(LOWORD(info->dwFileVersionMS)) + "." +
           std::to_string(HIWORD(info->dwFileVersionLS)) + "." + std::to_string(LOWORD(info->dwFileVersionLS));
}

// repro: omit begin (the framed protocol)
void send_error(const std::string& status, const std::string& call, HRESULT hr, const std::string& extra) {
    JsonWriter w;
    w.str("status", status).str("call", call);
    if (hr) w.str("hresult", hex32(static_cast<uint32_t>(hr)));
    if (!extra.empty()) w.str("message", extra);
    write_frame(w.done());
}
// repro: omit end

// ------------------------------------------------------------------------------------------------
// Adapters: through DXCore where dxcore.dll exists (every adapter DirectML runs on: GPUs and the
// compute-only NPUs, which DXGI does not list), else through DXGI (graphics adapters only: Windows
// before DXCore, and Wine, which has no dxcore.dll).  dxcore.dll is loaded at run time, never linked,
// so the programs start where it is missing.
// ------------------------------------------------------------------------------------------------

// The compute-only levels (DirectX-Headers' d3dcommon.h; mingw-w64's predates them).
constexpr D3D_FEATURE_LEVEL kLevel_1_0_Generic = static_cast<D3D_FEATURE_LEVEL>(0x100);  // D3D_FEATURE_LEVEL_1_0_GENERIC
constexpr D3D_FEATURE_LEVEL kLevel_1_0_Core = static_cast<D3D_FEATURE_LEVEL>(0x1000);    // D3D_FEATURE_LEVEL_1_0_CORE

std::string d3d_level_name(D3D_FEATURE_LEVEL level) {
    unsigned v = static_cast<unsigned>(level);
    if (v == 0x100) return "1_0_GENERIC";
    if (v == 0x1000) return "1_0_CORE";
    return std::to_string(v >> 12) + "_" + std::to_string((v >> 8) & 0xf);
}

std::string four_words(uint64_t v) {  // a driver version: a.b.c.d, 16 bits each
    return std::to_string((v >> 48) & 0xffff) + "." + std::to_string((v >> 32) & 0xffff) + "." +
           std::to_string((v >> 16) & 0xffff) + "." + std::to_string(v & 0xffff);
}

struct Adapter {
    Com<IUnknown> object;  // an IDXCoreAdapter or an IDXGIAdapter1: what D3D12CreateDevice takes
    std::string name;
    bool graphics = true, core_compute = true, generic_ml = true;  // a DXGI adapter is a graphics adapter
    bool hardware = true;
    int integrated = -1;  // 1 integrated, 0 discrete, -1 not known (DXGI does not say)
    uint32_t vendor = 0, device = 0, subsys = 0, revision = 0;
    uint64_t dedicated = 0, shared = 0;
    LUID luid{};
    std::string driver_version = "unknown";

    // NPU: an adapter without D3D12 graphics, as ONNX Runtime's DirectML provider decides it.
    const char* kind() const { return graphics ? "GPU" : "NPU"; }
    const char* placement() const { return integrated < 0 ? "unknown" : integrated ? "integrated" : "discrete"; }
    std::string luid_text() const {
        char buf[40];
        std::snprintf(buf, sizeof buf, "%08lx:%08lx", static_cast<unsigned long>(luid.HighPart),
                      static_cast<unsigned long>(luid.LowPart));
        return buf;
    }
    std::string attributes() const {
        std::string out;
        if (generic_ml) out += "GENERIC_ML";
        if (core_compute) out += std::string(out.empty() ? "" : ",") + "CORE_COMPUTE";
        if (graphics) out += std::string(out.empty() ? "" : ",") + "GRAPHICS";
        return out;
    }
    std::string summary(size_t index) const {
        return std::to_string(index) + ": " + name + " (" + kind() + ", " + placement() + ", " +
               (hardware ? "hardware" : "software") + ", driver " + driver_version + ", LUID " + luid_text() + ")";
    }
    std::string json(size_t index) const {
        return JsonWriter()
            .u64("index", index)
            .str("name", name)
            .str("kind", kind())
            .str("placement", placement())
            .boolean("hardware", hardware)
            .str("attributes", attributes())
            .str("driver_version", driver_version)
            .str("luid", luid_text())
            .done();
    }
};

using DXCoreCreateFn = HRESULT(WINAPI*)(REFIID, void**);

template <typename T>
void dxcore_property(IDXCoreAdapter* a, DXCoreAdapterProperty property, T* value, const char* name) {
    if (!a->IsPropertySupported(property)) return;
    CHECK(a->GetProperty(property, sizeof(T), static_cast<void*>(value)), name);
}

Adapter dxcore_adapter(IDXCoreAdapter* a) {
    Adapter out;
    size_t size = 0;
    if (a->IsPropertySupported(DXCoreAdapterProperty::DriverDescription)) {
        CHECK(a->GetPropertySize(DXCoreAdapterProperty::DriverDescription, &size),
              "IDXCoreAdapter::GetPropertySize(DriverDescription)");
        std::vector<char> text(size + 1, '\0');
        CHECK(a->GetProperty(DXCoreAdapterProperty::DriverDescription, size, text.data()),
              "IDXCoreAdapter::GetProperty(DriverDescription)");
        out.name = text.data();
    }
    uint64_t driver = 0;
    dxcore_property(a, DXCoreAdapterProperty::DriverVersion, &driver, "IDXCoreAdapter::GetProperty(DriverVersion)");
    if (driver) out.driver_version = four_words(driver);
    dxcore_property(a, DXCoreAdapterProperty::InstanceLuid, &out.luid, "IDXCoreAdapter::GetProperty(InstanceLuid)");
    DXCoreHardwareID id{};
    dxcore_property(a, DXCoreAdapterProperty::HardwareID, &id, "IDXCoreAdapter::GetProperty(HardwareID)");
    out.vendor = id.vendorID, out.device = id.deviceID, out.subsys = id.subSysID, out.revision = id.revision;
    dxcore_property(a, DXCoreAdapterProperty::DedicatedAdapterMemory, &out.dedicated,
                    "IDXCoreAdapter::GetProperty(DedicatedAdapterMemory)");
    dxcore_property(a, DXCoreAdapterProperty::SharedSystemMemory, &out.shared,
                    "IDXCoreAdapter::GetProperty(SharedSystemMemory)");
    bool flag = true;
    dxcore_property(a, DXCoreAdapterProperty::IsHardware, &flag, "IDXCoreAdapter::GetProperty(IsHardware)");
    out.hardware = flag;
    if (a->IsPropertySupported(DXCoreAdapterProperty::IsIntegrated)) {
        flag = false;
        dxcore_property(a, DXCoreAdapterProperty::IsIntegrated, &flag, "IDXCoreAdapter::GetProperty(IsIntegrated)");
        out.integrated = flag ? 1 : 0;
    }
    out.graphics = a->IsAttributeSupported(DXCORE_ADAPTER_ATTRIBUTE_D3D12_GRAPHICS);
    out.core_compute = a->IsAttributeSupported(DXCORE_ADAPTER_ATTRIBUTE_D3D12_CORE_COMPUTE);
    out.generic_ml = a->IsAttributeSupported(DXCORE_ADAPTER_ATTRIBUTE_D3D12_GENERIC_ML);
    return out;
}

// Every adapter DXCore lists with GENERIC_ML (the broadest set, DirectML's samples' first choice), then
// those with CORE_COMPUTE or GRAPHICS only, each once.  False (and `why`) when DXCore is not there.
bool dxcore_adapters(std::vector<Adapter>& out, std::string& why, std::string& notes) {
    HMODULE module = LoadLibraryW(L"dxcore.dll");  // kept loaded: its adapters live in it
    if (!module) {
        why = "dxcore.dll not found (LoadLibraryW: " + hex32(HRESULT_FROM_WIN32(GetLastError())) + ")";
        return false;
    }
    auto create = reinterpret_cast<DXCoreCreateFn>(GetProcAddress(module, "DXCoreCreateAdapterFactory"));
    if (!create) {
        why = "dxcore.dll has no DXCoreCreateAdapterFactory";
        return false;
    }
    wchar_t path[MAX_PATH] = L"";
    GetModuleFileNameW(module, path, MAX_PATH);
    notes = "dxcore.dll: " + utf8(path);
    Com<IDXCoreAdapterFactory> factory;
    HRESULT hr = create(IID_IDXCoreAdapterFactory, factory.put_void());
    if (FAILED(hr)) {
        why = "DXCoreCreateAdapterFactory returned " + hex32(static_cast<uint32_t>(hr));
        return false;
    }
    const std::pair<const GUID*, const char*> lists[] = {
        {&DXCORE_ADAPTER_ATTRIBUTE_D3D12_GENERIC_ML, "GENERIC_ML"},
        {&DXCORE_ADAPTER_ATTRIBUTE_D3D12_CORE_COMPUTE, "CORE_COMPUTE"},
        {&DXCORE_ADAPTER_ATTRIBUTE_D3D12_GRAPHICS, "GRAPHICS"},
    };
    for (const auto& attribute : lists) {
        Com<IDXCoreAdapterList> list;
        hr = factory->CreateAdapterList(1, attribute.first, IID_IDXCoreAdapterList, list.put_void());
        if (FAILED(hr)) {  // an older DXCore that does not know the attribute: the others still count
            notes += std::string("; IDXCoreAdapterFactory::CreateAdapterList(") +
                     attribute.second + ") returned " + hex32(static_cast<uint32_t>(hr));
            continue;
        }
        // DirectML's own order where DXCore offers it (ONNX Runtime sorts so too): hardware, then high performance.
        const DXCoreAdapterPreference order[] = {DXCoreAdapterPreference::Hardware,
                                                 DXCoreAdapterPreference::HighPerformance};
        if (list->IsAdapterPreferenceSupported(order[0]) && list->IsAdapterPreferenceSupported(order[1])) {
            hr = list->Sort(2, order);
            if (FAILED(hr))
                notes += std::string("; IDXCoreAdapterList::Sort(") + attribute.second + ") returned " +
                         hex32(static_cast<uint32_t>(hr));
        }
        for (uint32_t i = 0, n = list->GetAdapterCount(); i < n; ++i) {
            Com<IDXCoreAdapter> a;
            CHECK(list->GetAdapter(i, IID_IDXCoreAdapter, a.put_void()), "IDXCoreAdapterList::GetAdapter");
            Adapter info = dxcore_adapter(a.p);
            bool seen = false;
            for (const auto& o : out)
                seen = seen || (o.luid.LowPart == info.luid.LowPart && o.luid.HighPart == info.luid.HighPart);
            if (seen) continue;
            info.object.p = a.p;  // the reference moves to the Adapter
            a.p = nullptr;
            out.push_back(std::move(info));
        }
    }
    return true;
}

void dxgi_adapters(std::vector<Adapter>& out) {
    Com<IDXGIFactory1> factory;
    CHECK(CreateDXGIFactory1(__uuidof(IDXGIFactory1), factory.put_void()), "CreateDXGIFactory1");
    for (UINT i = 0;; ++i) {
        Com<IDXGIAdapter1> a;
        HRESULT hr = factory->EnumAdapters1(i, a.put());
        if (hr == DXGI_ERROR_NOT_FOUND) break;
        CHECK(hr, "IDXGIFactory1::EnumAdapters1");
        DXGI_ADAPTER_DESC1 d{};
        CHECK(a->GetDesc1(&d), "IDXGIAdapter1::GetDesc1");
        Adapter info;
        info.name = utf8(d.Description);
        info.core_compute = info.generic_ml = false;  // DXGI knows graphics adapters only, and says nothing more
        info.vendor = d.VendorId, info.device = d.DeviceId, info.subsys = d.SubSysId, info.revision = d.Revision;
        info.dedicated = d.DedicatedVideoMemory, info.shared = d.SharedSystemMemory;
        info.luid = d.AdapterLuid;
        info.hardware = (d.Flags & DXGI_ADAPTER_FLAG_SOFTWARE) == 0;
        LARGE_INTEGER umd{};
        if (SUCCEEDED(a->CheckInterfaceSupport(__uuidof(IDXGIDevice), &umd)))
            info.driver_version = four_words(static_cast<uint64_t>(umd.QuadPart));
        info.object.p = a.p;
        a.p = nullptr;
        out.push_back(std::move(info));
    }
}

// ------------------------------------------------------------------------------------------------
// The device: one adapter, one D3D12 device with a compute queue, DirectML.dll loaded by path.
// ------------------------------------------------------------------------------------------------

using CreateDevice1Fn = HRESULT(WINAPI*)(ID3D12Device*, DML_CREATE_DEVICE_FLAGS, DML_FEATURE_LEVEL, REFIID, void**);

class Device {
public:
    // `adapter_choice`: an index into every adapter listed, or a substring of a name; empty: the first of `kind`.
    // `kind`: "gpu", "npu" or "any"; empty: "gpu" unless an adapter is named (then whatever it is).
    Device(const std::wstring& dll_path, const std::string& adapter_choice, const std::string& kind = "")
        : dll_path_(dll_path) {
        std::vector<Adapter> all;
        if (dxcore_adapters(all, dxgi_reason_, enumeration_notes_)) {
            api_ = "DXCore";
        } else {
            api_ = "DXGI";
            dxgi_adapters(all);
        }
        for (size_t i = 0; i < all.size(); ++i) {
            adapters_ += (adapters_.empty() ? "" : "; ") + all[i].summary(i);
            adapter_list_ += (adapter_list_.empty() ? "" : ",") + all[i].json(i);
        }
        std::string where = " (adapters through " + api_ + (dxgi_reason_.empty() ? "" : ", " + dxgi_reason_) +
                            ": " + (adapters_.empty() ? "none" : adapters_) + ")";
        if (all.empty()) throw HrError{DXGI_ERROR_NOT_FOUND, "no adapter" + where};
        std::string want = kind.empty() && adapter_choice.empty() ? "gpu" : kind;
        if (!want.empty() && want != "gpu" && want != "npu" && want != "any")
            throw HrError{E_INVALIDARG, "--adapter-kind " + want + " (gpu, npu or any)"};
        auto fits = [&](const Adapter& a) {
            return want.empty() || want == "any" || (want == "gpu") == a.graphics;
        };
        size_t pick = all.size();
        if (!adapter_choice.empty()) {
            bool digits = adapter_choice.find_first_not_of("0123456789") == std::string::npos;
            for (size_t i = 0; i < all.size() && pick == all.size(); ++i)
                if (digits ? std::to_string(i) == adapter_choice : all[i].name.find(adapter_choice) != std::string::npos)
                    pick = i;
            if (pick == all.size()) throw HrError{DXGI_ERROR_NOT_FOUND, "adapter '" + adapter_choice + "'" + where};
            if (!fits(all[pick]))
                throw HrError{DXGI_ERROR_NOT_FOUND, "adapter '" + adapter_choice + "' is " + all[pick].kind() +
                                                        ", not --adapter-kind " + want + where};
        } else {  // a hardware adapter first: WARP and the Basic Render Driver are listed too
            for (size_t i = 0; i < all.size() && pick == all.size(); ++i)
                if (fits(all[i]) && all[i].hardware) pick = i;
            for (size_t i = 0; i < all.size() && pick == all.size(); ++i)
                if (fits(all[i])) pick = i;
            if (pick == all.size()) throw HrError{DXGI_ERROR_NOT_FOUND, "no adapter of kind " + want + where};
        }
        adapter_ = std::move(all[pick]);
        create_device();
        D3D12_COMMAND_QUEUE_DESC qd{};
        qd.Type = D3D12_COMMAND_LIST_TYPE_COMPUTE;
        CHECK(device_->CreateCommandQueue(&qd, __uuidof(ID3D12CommandQueue), queue_.put_void()),
              "ID3D12Device::CreateCommandQueue");
        // Loaded by full path before anything else asks for "DirectML.dll", so every later user (ONNX
        // Runtime included) gets this very module.
        dml_ = LoadLibraryW(dll_path.c_str());
        if (!dml_) throw HrError{HRESULT_FROM_WIN32(GetLastError()), "LoadLibraryW(DirectML.dll)"};
        create_ = reinterpret_cast<CreateDevice1Fn>(GetProcAddress(dml_, "DMLCreateDevice1"));
        if (!create_) throw HrError{HRESULT_FROM_WIN32(GetLastError()), "GetProcAddress(DMLCreateDevice1)"};
    }

    ID3D12Device* d3d12() const { return device_.p; }
    ID3D12CommandQueue* queue() const { return queue_.p; }
    const Adapter& adapter() const { return adapter_; }
    const std::string& api() const { return api_; }

    IDMLDevice* dml_device(DML_FEATURE_LEVEL level) {
        auto it = devices_.find(level);
        if (it != devices_.end()) return it->second.p;
        Com<IDMLDevice> dev;
        CHECK(create_(device_.p, DML_CREATE_DEVICE_FLAG_NONE, level, __uuidof(IDMLDevice), dev.put_void()),
              ("DMLCreateDevice1(minimumFeatureLevel=" + feature_level_name(level) + ")").c_str());
        IDMLDevice* raw = dev.p;
        devices_[level] = std::move(dev);
        return raw;
    }

    // The adapter, driver, D3D12 and DirectML facts a result must be recorded with.
    void describe(JsonWriter& w) {
        w.str("directml_dll", utf8(dll_path_.c_str())).str("directml_version", file_version(dll_path_));
        const Adapter& a = adapter_;
        w.str("adapter", a.name)
            .str("adapter_kind", a.kind())
            .str("adapter_placement", a.placement())
            .str("adapter_attributes", a.attributes())
            .str("adapter_api", api_)
            .str("adapter_api_note", dxgi_reason_.empty() ? enumeration_notes_ : dxgi_reason_)
            .str("vendor_id", hex32(a.vendor))
            .str("device_id", hex32(a.device))
            .str("subsys_id", hex32(a.subsys))
            .u64("revision", a.revision)
            .u64("dedicated_video_memory", a.dedicated)
            .u64("shared_system_memory", a.shared)
            .str("luid", a.luid_text())
            .boolean("software_adapter", !a.hardware)
            .str("adapters", adapters_)
            .raw("adapter_list", "[" + adapter_list_ + "]")
            .str("driver_version", a.driver_version);
        w.str("d3d12_create_level", d3d_level_name(created_level_))
            .str("d3d12_create_refused", refused_)
            .str("d3d12_feature_level", d3d_feature_level())
            .str("shader_model", shader_model())
            .str("double_shader_ops", double_shader_ops())
            .str("int64_shader_ops", int64_shader_ops());
        IDMLDevice* dml = dml_device(DML_FEATURE_LEVEL_1_0);
        std::vector<DML_FEATURE_LEVEL> all;
        for (const auto& kv : feature_levels()) all.push_back(kv.second);
        DML_FEATURE_QUERY_FEATURE_LEVELS q{static_cast<UINT>(all.size()), all.data()};
        DML_FEATURE_DATA_FEATURE_LEVELS levels{};
        CHECK(dml->CheckFeatureSupport(DML_FEATURE_FEATURE_LEVELS, sizeof q, &q, sizeof levels, &levels),
              "IDMLDevice::CheckFeatureSupport(DML_FEATURE_FEATURE_LEVELS)");
        w.str("max_feature_level", feature_level_name(levels.MaxSupportedFeatureLevel));
        std::string types;
        for (const auto& kv : data_types()) {
            DML_FEATURE_QUERY_TENSOR_DATA_TYPE_SUPPORT tq{kv.second};
            DML_FEATURE_DATA_TENSOR_DATA_TYPE_SUPPORT td{};
            CHECK(dml->CheckFeatureSupport(DML_FEATURE_TENSOR_DATA_TYPE_SUPPORT, sizeof tq, &tq, sizeof td, &td),
                  "IDMLDevice::CheckFeatureSupport(DML_FEATURE_TENSOR_DATA_TYPE_SUPPORT)");
            types += (types.empty() ? "" : ",") + quote(kv.first) + ":" + (td.IsSupported ? "true" : "false");
        }
        w.raw("data_types", "{" + types + "}");
        typedef const char*(CDECL * WineVersionFn)();
        HMODULE ntdll = GetModuleHandleW(L"ntdll.dll");
        auto wine_version = ntdll ? reinterpret_cast<WineVersionFn>(GetProcAddress(ntdll, "wine_get_version")) : nullptr;
        w.str("wine", wine_version ? wine_version() : "").str("header_target_version", hex32(DML_TARGET_VERSION));
    }

    std::string removed_reason() {
        HRESULT d3d = device_ ? device_->GetDeviceRemovedReason() : S_OK;
        std::string out = hex32(static_cast<uint32_t>(d3d));
        for (auto& kv : devices_) {
            HRESULT r = kv.second->GetDeviceRemovedReason();
            if (FAILED(r)) return out + " (IDMLDevice: " + hex32(static_cast<uint32_t>(r)) + ")";
        }
        return out;
    }

private:
    std::wstring dll_path_;
    HMODULE dml_ = nullptr;
    CreateDevice1Fn create_ = nullptr;
    Adapter adapter_;
    std::string api_, dxgi_reason_, enumeration_notes_, adapters_, adapter_list_;
    D3D_FEATURE_LEVEL created_level_ = D3D_FEATURE_LEVEL_11_0;
    std::string refused_;  // the levels D3D12CreateDevice refused before the one it took
    Com<ID3D12Device> device_;
    Com<ID3D12CommandQueue> queue_;
    std::map<DML_FEATURE_LEVEL, Com<IDMLDevice>> devices_;

    // A graphics adapter at 11_0 (its device then runs at its highest level); a compute-only one at 1_0_CORE,
    // else 1_0_GENERIC (ONNX Runtime's order), else 11_0: a D3D12 that knows no compute-only level (vkd3d
    // under Wine refuses them with E_INVALIDARG) still gets a device where the adapter has one.
    void create_device() {
        std::vector<D3D_FEATURE_LEVEL> tries;
        if (!adapter_.graphics) {
            if (adapter_.core_compute) tries.push_back(kLevel_1_0_Core);
            tries.push_back(kLevel_1_0_Generic);
        }
        tries.push_back(D3D_FEATURE_LEVEL_11_0);
        HRESULT hr = E_FAIL;
        for (D3D_FEATURE_LEVEL level : tries) {
            hr = D3D12CreateDevice(adapter_.object.p, level, __uuidof(ID3D12Device), device_.put_void());
            if (SUCCEEDED(hr)) {
                created_level_ = level;
                return;
            }
            refused_ += (refused_.empty() ? "" : "; ") + d3d_level_name(level) + ": " + hex32(static_cast<uint32_t>(hr));
        }
        throw HrError{hr, "D3D12CreateDevice(" + adapter_.name + ", " + adapter_.kind() + "; refused " + refused_ + ")"};
    }

    std::string d3d_feature_level() {
        D3D_FEATURE_LEVEL levels[] = {kLevel_1_0_Generic,     kLevel_1_0_Core,        D3D_FEATURE_LEVEL_11_0,
                                      D3D_FEATURE_LEVEL_11_1, D3D_FEATURE_LEVEL_12_0, D3D_FEATURE_LEVEL_12_1,
                                      static_cast<D3D_FEATURE_LEVEL>(0xc200)};
        // The newest lists first; a runtime refuses a list naming a level it does not know (12_2 = 0xc200, or
        // the compute-only ones), so step down to what it knows.
        const std::pair<size_t, UINT> lists[] = {{0, 7}, {0, 6}, {2, 5}, {2, 4}};
        for (const auto& list : lists) {
            D3D12_FEATURE_DATA_FEATURE_LEVELS fl{};
            fl.pFeatureLevelsRequested = levels + list.first;
            fl.NumFeatureLevels = list.second;
            if (SUCCEEDED(device_->CheckFeatureSupport(D3D12_FEATURE_FEATURE_LEVELS, &fl, sizeof fl)))
                return d3d_level_name(fl.MaxSupportedFeatureLevel);
        }
        return "unknown";
    }

    // The device's 64-bit shader caps, recorded beside its shader model: DirectML's DML_CAST kernels for 64-bit types
    // are shader model 6 code, which vkd3d 1.6 (shader model 5.1, yet both caps "yes") cannot compile
    // (backend.SHADER_MODEL_6_KERNELS).
    std::string double_shader_ops() {
        D3D12_FEATURE_DATA_D3D12_OPTIONS d{};
        HRESULT hr = device_->CheckFeatureSupport(D3D12_FEATURE_D3D12_OPTIONS, &d, sizeof d);
        return FAILED(hr) ? "unknown (" + hex32(static_cast<uint32_t>(hr)) + ")" : d.DoublePrecisionFloatShaderOps ? "yes" : "no";
    }
    std::string int64_shader_ops() {
        D3D12_FEATURE_DATA_D3D12_OPTIONS1 d{};
        HRESULT hr = device_->CheckFeatureSupport(D3D12_FEATURE_D3D12_OPTIONS1, &d, sizeof d);
        return FAILED(hr) ? "unknown (" + hex32(static_cast<uint32_t>(hr)) + ")" : d.Int64ShaderOps ? "yes" : "no";
    }
    std::string shader_model() {
        // Ask for the newest model; the runtime lowers it to what the device has.  Older runtimes refuse
        // models they do not know with E_INVALIDARG, so step down.
        for (int sm = 0x69; sm >= 0x51; sm = (sm == 0x60 ? 0x51 : sm - 1)) {
            D3D12_FEATURE_DATA_SHADER_MODEL d{static_cast<D3D_SHADER_MODEL>(sm)};
            if (SUCCEEDED(device_->CheckFeatureSupport(D3D12_FEATURE_SHADER_MODEL, &d, sizeof d))) {
                unsigned v = static_cast<unsigned>(d.HighestShaderModel);
                return std::to_string(v >> 4) + "." + std::to_string(v & 0xf);
            }
            if (sm == 0x51) break;
        }
        return "unknown";
    }
};

// ------------------------------------------------------------------------------------------------
// Calls whose C++ signature differs between mingw's g++ and MSVC.
// ------------------------------------------------------------------------------------------------

// IDMLDispatchable::GetBindingProperties returns a struct by value.  MSVC passes the hidden result
// pointer after `this`; g++ passes it before.  DirectML.dll is built with MSVC, so from g++ the method
// is called through its vtable slot with MSVC's order.  Slot 8: IUnknown (3), IDMLObject (4),
// IDMLDeviceChild::GetDevice (1), then GetBindingProperties.
[[maybe_unused]] DML_BINDING_PROPERTIES binding_properties(IDMLDispatchable* dispatchable) {
#if defined(__GNUC__) && !defined(_MSC_VER)
    using Fn = DML_BINDING_PROPERTIES*(STDMETHODCALLTYPE*)(IDMLDispatchable*, DML_BINDING_PROPERTIES*);
    DML_BINDING_PROPERTIES result{};
    Fn fn = reinterpret_cast<Fn>((*reinterpret_cast<void***>(dispatchable))[8]);
    fn(dispatchable, &result);
    return result;
#else
    return dispatchable->GetBindingProperties();
#endif
}

// repro: omit begin (the request loop)
// ------------------------------------------------------------------------------------------------
// The request loop: a program answers every request with exactly one frame.
// ------------------------------------------------------------------------------------------------

class Program {
public:
    virtual ~Program() = default;
    virtual std::string info() = 0;  // a JSON object: the device and what the program adds
    virtual void handle(const std::string& op, const Json& req, const std::vector<unsigned char>& payload) = 0;
    virtual std::string removed_reason() = 0;
};

using Args = std::map<std::wstring, std::wstring>;  // --name value pairs from the command line

int serve(int argc, wchar_t** argv, const std::function<std::unique_ptr<Program>(const Args&)>& make) {
    _setmode(_fileno(stdin), _O_BINARY);
    _setmode(_fileno(stdout), _O_BINARY);
    Args args;
    for (int i = 1; i + 1 < argc; i += 2) args[argv[i]] = argv[i + 1];
    std::unique_ptr<Program> program;
    try {
        program = make(args);
    } catch (const HrError& e) {
        // The start-up failure is the first frame, so the caller can name it; then exit.
        send_error("startup_failed", e.call, e.hr, "");
        return 3;
    }
    write_frame(JsonWriter().str("status", "ready").done());
    for (;;) {
        unsigned char prefix[12];
        if (!read_exact(prefix, sizeof prefix)) return 0;  // the caller closed stdin: done
        uint64_t header_len = get_le(prefix, 4), payload_len = get_le(prefix + 4, 8);
        if (header_len > (1u << 20) || payload_len > (uint64_t(1) << 40)) {
            send_error("protocol_error", "", 0, "frame lengths " + std::to_string(header_len) + "/" +
                                                   std::to_string(payload_len) + " are implausible");
            return 4;
        }
        std::string header(static_cast<size_t>(header_len), '\0');
        std::vector<unsigned char> payload;
        try {
            payload.resize(static_cast<size_t>(payload_len));
        } catch (const std::bad_alloc&) {
            send_error("failed", "operator new", E_OUTOFMEMORY, "payload of " + std::to_string(payload_len) + " bytes");
            return 5;
        }
        if ((header_len && !read_exact(&header[0], header.size())) ||
            (payload_len && !read_exact(payload.data(), payload.size())))
            return 4;
        try {
            Json req = JsonReader(header).parse();
            const std::string& op = req.at("op").str("op");
            if (op == "quit") {
                write_frame(JsonWriter().str("status", "bye").done());
                return 0;
            }
            if (op == "info") {
                write_frame(program->info());
                continue;
            }
            try {
                program->handle(op, req, payload);
            } catch (const HrError& e) {
                send_error("failed", e.call, e.hr, "device removed reason: " + program->removed_reason());
            }
        } catch (const ProtocolError& e) {
            send_error("protocol_error", "", 0, e.message);
        } catch (const HrError& e) {
            send_error("failed", e.call, e.hr, "");
        } catch (const std::bad_alloc&) {
            send_error("failed", "operator new", E_OUTOFMEMORY, "");
        }
    }
}
// repro: omit end

}  // namespace
