// dml_runner: runs DML_SLICE, DML_SLICE1, DML_PADDING and DML_SPLIT exactly as a case describes them.
//
// One long-lived process per backend instance: one D3D12 device, one shader-visible descriptor heap
// (creating one costs seconds under vkd3d, so it is made once and reused), one IDMLDevice per minimum
// feature level asked for.  Cases arrive on stdin and results leave on stdout as frames:
//
//     [u32 header length][u64 payload length][JSON header][payload]   (lengths little-endian)
//
// Requests: {"op":"info"}, {"op":"run", ...} with the input tensor's bytes as payload, {"op":"quit"}.
// A response to "run" carries the outputs' bytes, one after another, lengths in its header.
// Every HRESULT is checked and a failure names the call that returned it.  The program never judges a
// result: it reports what DirectML accepted, refused and wrote; the Python side compares.
//
// Built by conformance/backends/directml/build.py with mingw-w64 (Linux, run under Wine) or MSVC,
// clang-cl or mingw on Windows, against Microsoft's DirectML.h and the D3D12 headers.

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

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <algorithm>
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
#endif

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
        long long v = std::strtoll(text.c_str(), &end, 10);
        if (!end || *end) throw ProtocolError{what + " is not an integer: " + text};
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

const std::map<std::string, DML_PADDING_MODE>& padding_modes() {
    static const std::map<std::string, DML_PADDING_MODE> m = {
        {"CONSTANT", DML_PADDING_MODE_CONSTANT},
        {"EDGE", DML_PADDING_MODE_EDGE},
        {"REFLECTION", DML_PADDING_MODE_REFLECTION},
        {"SYMMETRIC", DML_PADDING_MODE_SYMMETRIC},
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

// ------------------------------------------------------------------------------------------------
// Calls whose C++ signature differs between mingw's g++ and MSVC.
// ------------------------------------------------------------------------------------------------

// IDMLDispatchable::GetBindingProperties returns a struct by value.  MSVC passes the hidden result
// pointer after `this`; g++ passes it before.  DirectML.dll is built with MSVC, so from g++ the method
// is called through its vtable slot with MSVC's order.  Slot 8: IUnknown (3), IDMLObject (4),
// IDMLDeviceChild::GetDevice (1), then GetBindingProperties.
DML_BINDING_PROPERTIES binding_properties(IDMLDispatchable* dispatchable) {
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

// ------------------------------------------------------------------------------------------------
// The case as DirectML structs.
// ------------------------------------------------------------------------------------------------

std::vector<UINT> uints(const Json& j, const std::string& what) {
    if (j.kind != Json::Array) throw ProtocolError{what + " is not an array"};
    std::vector<UINT> out;
    for (size_t i = 0; i < j.items.size(); ++i) {
        int64_t v = j.items[i].integer(what);
        if (v < 0 || v > 0xFFFFFFFFll) throw ProtocolError{what + " holds a value outside UINT"};
        out.push_back(static_cast<UINT>(v));
    }
    return out;
}

std::vector<INT> ints(const Json& j, const std::string& what) {
    if (j.kind != Json::Array) throw ProtocolError{what + " is not an array"};
    std::vector<INT> out;
    for (size_t i = 0; i < j.items.size(); ++i) {
        int64_t v = j.items[i].integer(what);
        if (v < INT32_MIN || v > INT32_MAX) throw ProtocolError{what + " holds a value outside INT"};
        out.push_back(static_cast<INT>(v));
    }
    return out;
}

// One DML_BUFFER_TENSOR_DESC with the arrays it points to (kept alive beside it).
struct Tensor {
    std::vector<UINT> sizes;
    std::vector<UINT> strides;
    bool has_strides = false;
    DML_BUFFER_TENSOR_DESC buffer{};
    DML_TENSOR_DESC desc{};
    uint64_t offset = 0;  // where the tensor lives in the shared default buffer
    uint64_t region = 0;  // bytes reserved for it there (total size, then guard bytes)

    void init(const Json& j, const std::string& what) {
        sizes = uints(j.at("sizes"), what + ".sizes");
        if (j.has("strides")) {
            strides = uints(j.at("strides"), what + ".strides");
            has_strides = true;
        }
        buffer.DataType = lookup(data_types(), j.at("data_type").str(what + ".data_type"), "data type");
        buffer.Flags = static_cast<DML_TENSOR_FLAGS>(j.has("flags") ? j.at("flags").integer(what + ".flags") : 0);
        buffer.DimensionCount = static_cast<UINT>(sizes.size());
        buffer.Sizes = sizes.data();
        buffer.Strides = has_strides ? strides.data() : nullptr;
        int64_t total = j.at("total_size").integer(what + ".total_size");
        if (total < 0) throw ProtocolError{what + ".total_size is negative"};
        buffer.TotalTensorSizeInBytes = static_cast<UINT64>(total);
        buffer.GuaranteedBaseOffsetAlignment = 0;
        desc.Type = DML_TENSOR_TYPE_BUFFER;
        desc.Desc = &buffer;
    }
};

// The operator's struct and everything its pointers reach.
struct OperatorDesc {
    std::string name;
    Tensor input;
    std::vector<Tensor> outputs;
    std::vector<DML_TENSOR_DESC> output_descs;
    std::vector<UINT> a, b, c;  // the per-dimension arrays, in the struct's order
    std::vector<INT> strides1;
    DML_SLICE_OPERATOR_DESC slice{};
    DML_SLICE1_OPERATOR_DESC slice1{};
    DML_PADDING_OPERATOR_DESC padding{};
    DML_SPLIT_OPERATOR_DESC split{};
    DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC identity{};
    DML_OPERATOR_DESC op{};

    void init(const Json& req) {
        name = req.at("operator").str("operator");
        const Json& tensors = req.at("tensors");
        input.init(tensors.at("input"), "input_tensor");
        const Json& outs = tensors.at("outputs");
        outputs.resize(outs.items.size());
        for (size_t i = 0; i < outs.items.size(); ++i) outputs[i].init(outs.items[i], "output_tensors");
        for (auto& t : outputs) output_descs.push_back(t.desc);
        const Json& f = req.at("fields");
        UINT dims = f.has("dimension_count") ? static_cast<UINT>(f.at("dimension_count").integer("dimension_count")) : 0;
        if (name == "SLICE") {
            a = uints(f.at("offsets"), "offsets");
            b = uints(f.at("sizes"), "sizes");
            c = uints(f.at("strides"), "strides");
            slice = {&input.desc, &output_descs.at(0), dims, a.data(), b.data(), c.data()};
            op = {DML_OPERATOR_SLICE, &slice};
        } else if (name == "SLICE1") {
            a = uints(f.at("window_offsets"), "window_offsets");
            b = uints(f.at("window_sizes"), "window_sizes");
            strides1 = ints(f.at("window_strides"), "window_strides");
            slice1 = {&input.desc, &output_descs.at(0), dims, a.data(), b.data(), strides1.data()};
            op = {DML_OPERATOR_SLICE1, &slice1};
        } else if (name == "PADDING") {
            a = uints(f.at("start_padding"), "start_padding");
            b = uints(f.at("end_padding"), "end_padding");
            // PaddingValue is a FLOAT in the struct; its bits arrive exactly (NaN payloads included).
            uint32_t bits = static_cast<uint32_t>(f.at("padding_value_bits").integer("padding_value_bits"));
            FLOAT value;
            std::memcpy(&value, &bits, sizeof value);
            DML_PADDING_MODE mode = lookup(padding_modes(), f.at("padding_mode").str("padding_mode"), "padding mode");
            padding = {&input.desc, &output_descs.at(0), mode, value, dims, a.data(), b.data()};
            op = {DML_OPERATOR_PADDING, &padding};
        } else if (name == "SPLIT") {
            UINT count = static_cast<UINT>(f.at("output_count").integer("output_count"));
            UINT axis = static_cast<UINT>(f.at("axis").integer("axis"));
            split = {&input.desc, count, output_descs.data(), axis};
            op = {DML_OPERATOR_SPLIT, &split};
        } else if (name == "ELEMENT_WISE_IDENTITY") {
            // Not under test: the self-test that the device and driver stack copy data at all.
            identity = {&input.desc, &output_descs.at(0), nullptr};
            op = {DML_OPERATOR_ELEMENT_WISE_IDENTITY, &identity};
        } else {
            throw ProtocolError{"unknown operator '" + name + "'"};
        }
    }
};

// ------------------------------------------------------------------------------------------------
// The device and the reusable resources.
// ------------------------------------------------------------------------------------------------

using CreateDevice1Fn = HRESULT(WINAPI*)(ID3D12Device*, DML_CREATE_DEVICE_FLAGS, DML_FEATURE_LEVEL, REFIID, void**);

constexpr uint64_t kAlign = DML_MINIMUM_BUFFER_TENSOR_ALIGNMENT;  // 16
constexpr uint64_t kGuard = 256;  // bytes after each output that must stay untouched
constexpr unsigned char kPoison = 0xCD;  // what unwritten output bytes hold
constexpr UINT kHeapDescriptors = 1024;

uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

struct Buffer {  // a committed buffer that grows when a case needs more
    Com<ID3D12Resource> resource;
    uint64_t capacity = 0;
};

class Runner {
public:
    Runner(const std::wstring& dll_path, const std::string& adapter_choice) {
        init_d3d12(adapter_choice);
        dll_path_ = dll_path;
        dml_ = LoadLibraryW(dll_path.c_str());
        if (!dml_) throw HrError{HRESULT_FROM_WIN32(GetLastError()), "LoadLibraryW(DirectML.dll)"};
        create_ = reinterpret_cast<CreateDevice1Fn>(GetProcAddress(dml_, "DMLCreateDevice1"));
        if (!create_) throw HrError{HRESULT_FROM_WIN32(GetLastError()), "GetProcAddress(DMLCreateDevice1)"};
    }

    std::string info() {
        JsonWriter w;
        w.str("directml_dll", utf8(dll_path_.c_str())).str("directml_version", file_version(dll_path_));
        DXGI_ADAPTER_DESC1 d{};
        CHECK(adapter_->GetDesc1(&d), "IDXGIAdapter1::GetDesc1");
        char luid[40];
        std::snprintf(luid, sizeof luid, "%08lx:%08lx", static_cast<unsigned long>(d.AdapterLuid.HighPart),
                      static_cast<unsigned long>(d.AdapterLuid.LowPart));
        w.str("adapter", utf8(d.Description))
            .str("vendor_id", hex32(d.VendorId))
            .str("device_id", hex32(d.DeviceId))
            .str("subsys_id", hex32(d.SubSysId))
            .u64("revision", d.Revision)
            .u64("dedicated_video_memory", d.DedicatedVideoMemory)
            .u64("shared_system_memory", d.SharedSystemMemory)
            .str("luid", luid)
            .boolean("software_adapter", (d.Flags & DXGI_ADAPTER_FLAG_SOFTWARE) != 0)
            .str("adapters", adapters_json_)
            .str("driver_version", driver_version());
        w.str("d3d12_feature_level", d3d_feature_level()).str("shader_model", shader_model());
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
        w.str("wine", wine_version ? wine_version() : "");
        w.u64("descriptor_heap_size", heap_size_).str("header_target_version", hex32(DML_TARGET_VERSION));
        return w.done();
    }

    // Create (and unless check_only, compile, initialise, bind, dispatch, read back) one operator.
    void run(const Json& req, const std::vector<unsigned char>& input_bytes) {
        LARGE_INTEGER t0, t1, t2, t3, t4, freq;
        QueryPerformanceFrequency(&freq);
        auto seconds = [&](const LARGE_INTEGER& a, const LARGE_INTEGER& b) {
            return static_cast<double>(b.QuadPart - a.QuadPart) / static_cast<double>(freq.QuadPart);
        };
        OperatorDesc d;
        d.init(req);
        DML_FEATURE_LEVEL level = lookup(feature_levels(), req.at("min_feature_level").str("min_feature_level"),
                                         "feature level");
        IDMLDevice* dml = dml_device(level);
        QueryPerformanceCounter(&t0);
        Com<IDMLOperator> op;
        HRESULT hr = dml->CreateOperator(&d.op, __uuidof(IDMLOperator), op.put_void());
        QueryPerformanceCounter(&t1);
        if (FAILED(hr)) {
            write_frame(JsonWriter()
                            .str("status", "refused")
                            .str("call", "IDMLDevice::CreateOperator")
                            .str("hresult", hex32(static_cast<uint32_t>(hr)))
                            .num("create_s", seconds(t0, t1))
                            .done());
            return;
        }
        if (req.has("check_only") && req.at("check_only").b) {
            write_frame(JsonWriter().str("status", "accepted").num("create_s", seconds(t0, t1)).done());
            return;
        }
        Com<IDMLCompiledOperator> compiled;
        hr = dml->CompileOperator(op.p, DML_EXECUTION_FLAG_NONE, __uuidof(IDMLCompiledOperator), compiled.put_void());
        if (FAILED(hr)) throw HrError{hr, "IDMLDevice::CompileOperator"};
        IDMLCompiledOperator* ops[] = {compiled.p};
        Com<IDMLOperatorInitializer> init;
        CHECK(dml->CreateOperatorInitializer(1, ops, __uuidof(IDMLOperatorInitializer), init.put_void()),
              "IDMLDevice::CreateOperatorInitializer");
        QueryPerformanceCounter(&t2);

        if (input_bytes.size() != d.input.buffer.TotalTensorSizeInBytes)
            throw ProtocolError{"input payload has " + std::to_string(input_bytes.size()) + " bytes, total_size says " +
                                std::to_string(d.input.buffer.TotalTensorSizeInBytes)};
        // Layout in one default buffer: the input, then each output followed by guard bytes.
        uint64_t at = 0;
        d.input.offset = 0;
        d.input.region = align_up(std::max<uint64_t>(d.input.buffer.TotalTensorSizeInBytes, 4), kAlign);
        at = d.input.region;
        for (auto& t : d.outputs) {
            t.offset = at;
            t.region = align_up(t.buffer.TotalTensorSizeInBytes + kGuard, kAlign);
            at += t.region;
        }
        const uint64_t used = at;
        DML_BINDING_PROPERTIES init_props = binding_properties(init.p);
        DML_BINDING_PROPERTIES exec_props = binding_properties(compiled.p);
        grow(default_, used, D3D12_HEAP_TYPE_DEFAULT, "default");
        grow(upload_, used, D3D12_HEAP_TYPE_UPLOAD, "upload");
        grow(readback_, used, D3D12_HEAP_TYPE_READBACK, "readback");
        uint64_t temp_size = std::max(init_props.TemporaryResourceSize, exec_props.TemporaryResourceSize);
        if (temp_size) grow(temporary_, temp_size, D3D12_HEAP_TYPE_DEFAULT, "temporary");
        Buffer persistent;  // per operator: its contents belong to this compiled operator
        if (exec_props.PersistentResourceSize)
            grow(persistent, exec_props.PersistentResourceSize, D3D12_HEAP_TYPE_DEFAULT, "persistent");
        UINT descriptors = init_props.RequiredDescriptorCount + exec_props.RequiredDescriptorCount;
        if (descriptors > heap_size_) make_heap(std::max(descriptors, heap_size_ * 2));

        // Upload: the input bytes, then poison in every output region and its guard.
        unsigned char* mapped = nullptr;
        D3D12_RANGE none{0, 0};
        CHECK(upload_.resource->Map(0, &none, reinterpret_cast<void**>(&mapped)), "ID3D12Resource::Map(upload)");
        if (!input_bytes.empty()) std::memcpy(mapped, input_bytes.data(), input_bytes.size());
        std::memset(mapped + input_bytes.size(), kPoison, used - input_bytes.size());
        upload_.resource->Unmap(0, nullptr);

        // Binding tables: the initializer's descriptors first, the operator's after them.
        D3D12_CPU_DESCRIPTOR_HANDLE cpu = heap_->GetCPUDescriptorHandleForHeapStart();
        D3D12_GPU_DESCRIPTOR_HANDLE gpu = heap_->GetGPUDescriptorHandleForHeapStart();
        UINT step = device_->GetDescriptorHandleIncrementSize(D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
        DML_BINDING_TABLE_DESC init_table_desc{init.p, cpu, gpu, init_props.RequiredDescriptorCount};
        Com<IDMLBindingTable> init_table;
        CHECK(dml->CreateBindingTable(&init_table_desc, __uuidof(IDMLBindingTable), init_table.put_void()),
              "IDMLDevice::CreateBindingTable(initializer)");
        D3D12_CPU_DESCRIPTOR_HANDLE cpu2{cpu.ptr + static_cast<SIZE_T>(step) * init_props.RequiredDescriptorCount};
        D3D12_GPU_DESCRIPTOR_HANDLE gpu2{gpu.ptr + static_cast<UINT64>(step) * init_props.RequiredDescriptorCount};
        DML_BINDING_TABLE_DESC exec_table_desc{compiled.p, cpu2, gpu2, exec_props.RequiredDescriptorCount};
        Com<IDMLBindingTable> exec_table;
        CHECK(dml->CreateBindingTable(&exec_table_desc, __uuidof(IDMLBindingTable), exec_table.put_void()),
              "IDMLDevice::CreateBindingTable(operator)");

        DML_BUFFER_BINDING temp_binding{temporary_.resource.p, 0, temp_size};
        DML_BINDING_DESC temp_desc{DML_BINDING_TYPE_BUFFER, &temp_binding};
        DML_BUFFER_BINDING persistent_binding{persistent.resource.p, 0, exec_props.PersistentResourceSize};
        DML_BINDING_DESC persistent_desc{DML_BINDING_TYPE_BUFFER, &persistent_binding};
        DML_BUFFER_BINDING input_binding{default_.resource.p, d.input.offset, d.input.buffer.TotalTensorSizeInBytes};
        bool input_owned = (d.input.buffer.Flags & DML_TENSOR_FLAG_OWNED_BY_DML) != 0;
        if (input_owned) {  // an OWNED_BY_DML input is given to the initializer, not to the dispatch
            DML_BUFFER_ARRAY_BINDING array{1, &input_binding};
            DML_BINDING_DESC array_desc{DML_BINDING_TYPE_BUFFER_ARRAY, &array};
            init_table->BindInputs(1, &array_desc);
        }
        if (init_props.TemporaryResourceSize) init_table->BindTemporaryResource(&temp_desc);
        if (exec_props.PersistentResourceSize) init_table->BindOutputs(1, &persistent_desc);
        DML_BINDING_DESC input_desc{input_owned ? DML_BINDING_TYPE_NONE : DML_BINDING_TYPE_BUFFER,
                                    input_owned ? nullptr : &input_binding};
        exec_table->BindInputs(1, &input_desc);
        std::vector<DML_BUFFER_BINDING> out_bindings;
        out_bindings.reserve(d.outputs.size());
        for (const auto& t : d.outputs)
            out_bindings.push_back({default_.resource.p, t.offset, t.buffer.TotalTensorSizeInBytes});
        std::vector<DML_BINDING_DESC> out_descs;
        for (auto& b : out_bindings) out_descs.push_back({DML_BINDING_TYPE_BUFFER, &b});
        exec_table->BindOutputs(static_cast<UINT>(out_descs.size()), out_descs.data());
        if (exec_props.TemporaryResourceSize) exec_table->BindTemporaryResource(&temp_desc);
        if (exec_props.PersistentResourceSize) exec_table->BindPersistentResource(&persistent_desc);

        // Record: upload -> UAV -> initialise -> dispatch -> copy to readback.
        CHECK(allocator_->Reset(), "ID3D12CommandAllocator::Reset");
        CHECK(list_->Reset(allocator_.p, nullptr), "ID3D12GraphicsCommandList::Reset");
        ID3D12DescriptorHeap* heaps[] = {heap_.p};
        list_->SetDescriptorHeaps(1, heaps);
        transition(default_.resource.p, D3D12_RESOURCE_STATE_COMMON, D3D12_RESOURCE_STATE_COPY_DEST);
        list_->CopyBufferRegion(default_.resource.p, 0, upload_.resource.p, 0, used);
        std::vector<ID3D12Resource*> uav = {default_.resource.p};
        if (temp_size) uav.push_back(temporary_.resource.p);
        if (exec_props.PersistentResourceSize) uav.push_back(persistent.resource.p);
        transition(default_.resource.p, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
        for (size_t i = 1; i < uav.size(); ++i)
            transition(uav[i], D3D12_RESOURCE_STATE_COMMON, D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
        recorder(level)->RecordDispatch(list_.p, init.p, init_table.p);
        uav_barrier();
        recorder(level)->RecordDispatch(list_.p, compiled.p, exec_table.p);
        uav_barrier();
        transition(default_.resource.p, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_COPY_SOURCE);
        for (size_t i = 1; i < uav.size(); ++i)
            transition(uav[i], D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_COMMON);
        list_->CopyBufferRegion(readback_.resource.p, 0, default_.resource.p, 0, used);
        transition(default_.resource.p, D3D12_RESOURCE_STATE_COPY_SOURCE, D3D12_RESOURCE_STATE_COMMON);
        CHECK(list_->Close(), "ID3D12GraphicsCommandList::Close");
        ID3D12CommandList* lists[] = {list_.p};
        queue_->ExecuteCommandLists(1, lists);
        wait_idle();
        QueryPerformanceCounter(&t3);

        // Read back the outputs and check their guards.
        D3D12_RANGE all{0, static_cast<SIZE_T>(used)};
        CHECK(readback_.resource->Map(0, &all, reinterpret_cast<void**>(&mapped)), "ID3D12Resource::Map(readback)");
        std::string sizes, guards;
        std::vector<std::pair<const void*, size_t>> payload;
        std::vector<unsigned char> copy(mapped, mapped + used);
        readback_.resource->Unmap(0, &none);
        for (const auto& t : d.outputs) {
            uint64_t n = t.buffer.TotalTensorSizeInBytes;
            payload.emplace_back(copy.data() + t.offset, static_cast<size_t>(n));
            sizes += (sizes.empty() ? "" : ",") + std::to_string(n);
            // The first byte after the tensor's TotalTensorSizeInBytes that was written, or -1.
            int64_t touched = -1;
            for (uint64_t k = n; k < t.region; ++k)
                if (copy[t.offset + k] != kPoison) {
                    touched = static_cast<int64_t>(k);
                    break;
                }
            guards += (guards.empty() ? "" : ",") + std::to_string(touched);
        }
        QueryPerformanceCounter(&t4);
        write_frame(JsonWriter()
                        .str("status", "ok")
                        .raw("output_bytes", "[" + sizes + "]")
                        .raw("guard_written_at", "[" + guards + "]")
                        .u64("descriptors", descriptors)
                        .u64("temporary_bytes", temp_size)
                        .u64("persistent_bytes", exec_props.PersistentResourceSize)
                        .num("create_s", seconds(t0, t1))
                        .num("compile_s", seconds(t1, t2))
                        .num("execute_s", seconds(t2, t3))
                        .num("readback_s", seconds(t3, t4))
                        .done(),
                    payload);
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
    Com<IDXGIAdapter1> adapter_;
    std::string adapters_json_;
    Com<ID3D12Device> device_;
    Com<ID3D12CommandQueue> queue_;
    Com<ID3D12CommandAllocator> allocator_;
    Com<ID3D12GraphicsCommandList> list_;
    Com<ID3D12Fence> fence_;
    UINT64 fence_value_ = 0;
    HANDLE event_ = nullptr;
    Com<ID3D12DescriptorHeap> heap_;
    UINT heap_size_ = 0;
    Buffer default_, upload_, readback_, temporary_;
    std::map<DML_FEATURE_LEVEL, Com<IDMLDevice>> devices_;
    std::map<DML_FEATURE_LEVEL, Com<IDMLCommandRecorder>> recorders_;

    void init_d3d12(const std::string& choice) {
        Com<IDXGIFactory1> factory;
        CHECK(CreateDXGIFactory1(__uuidof(IDXGIFactory1), factory.put_void()), "CreateDXGIFactory1");
        // The adapter: by index ("1") or by a substring of its description ("NVIDIA"); default the first.
        std::vector<Com<IDXGIAdapter1>> all;
        for (UINT i = 0;; ++i) {
            Com<IDXGIAdapter1> a;
            if (factory->EnumAdapters1(i, a.put()) == DXGI_ERROR_NOT_FOUND) break;
            DXGI_ADAPTER_DESC1 d{};
            CHECK(a->GetDesc1(&d), "IDXGIAdapter1::GetDesc1");
            adapters_json_ += (adapters_json_.empty() ? "" : "; ") + std::to_string(i) + ": " + utf8(d.Description);
            all.push_back(std::move(a));
        }
        if (all.empty()) throw HrError{DXGI_ERROR_NOT_FOUND, "IDXGIFactory1::EnumAdapters1 (no adapter)"};
        size_t pick = 0;
        if (!choice.empty()) {
            bool digits = choice.find_first_not_of("0123456789") == std::string::npos;
            bool found = false;
            for (size_t i = 0; i < all.size() && !found; ++i) {
                DXGI_ADAPTER_DESC1 d{};
                CHECK(all[i]->GetDesc1(&d), "IDXGIAdapter1::GetDesc1");
                if ((digits && std::to_string(i) == choice) ||
                    (!digits && utf8(d.Description).find(choice) != std::string::npos)) {
                    pick = i;
                    found = true;
                }
            }
            if (!found) throw HrError{DXGI_ERROR_NOT_FOUND, "adapter '" + choice + "' (adapters: " + adapters_json_ + ")"};
        }
        adapter_ = std::move(all[pick]);
        CHECK(D3D12CreateDevice(adapter_.p, D3D_FEATURE_LEVEL_11_0, __uuidof(ID3D12Device), device_.put_void()),
              "D3D12CreateDevice");
        D3D12_COMMAND_QUEUE_DESC qd{};
        qd.Type = D3D12_COMMAND_LIST_TYPE_COMPUTE;
        CHECK(device_->CreateCommandQueue(&qd, __uuidof(ID3D12CommandQueue), queue_.put_void()),
              "ID3D12Device::CreateCommandQueue");
        CHECK(device_->CreateCommandAllocator(D3D12_COMMAND_LIST_TYPE_COMPUTE, __uuidof(ID3D12CommandAllocator),
                                              allocator_.put_void()),
              "ID3D12Device::CreateCommandAllocator");
        CHECK(device_->CreateCommandList(0, D3D12_COMMAND_LIST_TYPE_COMPUTE, allocator_.p, nullptr,
                                         __uuidof(ID3D12GraphicsCommandList), list_.put_void()),
              "ID3D12Device::CreateCommandList");
        CHECK(list_->Close(), "ID3D12GraphicsCommandList::Close");
        CHECK(device_->CreateFence(0, D3D12_FENCE_FLAG_NONE, __uuidof(ID3D12Fence), fence_.put_void()),
              "ID3D12Device::CreateFence");
        event_ = CreateEventW(nullptr, FALSE, FALSE, nullptr);
        if (!event_) throw HrError{HRESULT_FROM_WIN32(GetLastError()), "CreateEventW"};
        make_heap(kHeapDescriptors);
    }

    void make_heap(UINT size) {
        D3D12_DESCRIPTOR_HEAP_DESC hd{};
        hd.Type = D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV;
        hd.NumDescriptors = size;
        hd.Flags = D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE;
        heap_.reset();
        CHECK(device_->CreateDescriptorHeap(&hd, __uuidof(ID3D12DescriptorHeap), heap_.put_void()),
              "ID3D12Device::CreateDescriptorHeap");
        heap_size_ = size;
    }

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

    IDMLCommandRecorder* recorder(DML_FEATURE_LEVEL level) {
        auto it = recorders_.find(level);
        if (it != recorders_.end()) return it->second.p;
        Com<IDMLCommandRecorder> rec;
        CHECK(dml_device(level)->CreateCommandRecorder(__uuidof(IDMLCommandRecorder), rec.put_void()),
              "IDMLDevice::CreateCommandRecorder");
        IDMLCommandRecorder* raw = rec.p;
        recorders_[level] = std::move(rec);
        return raw;
    }

    void grow(Buffer& b, uint64_t need, D3D12_HEAP_TYPE type, const char* what) {
        if (b.capacity >= need && b.resource) return;
        uint64_t size = std::max<uint64_t>({need, b.capacity * 2, uint64_t(1) << 20});
        D3D12_HEAP_PROPERTIES hp{};
        hp.Type = type;
        D3D12_RESOURCE_DESC rd{};
        rd.Dimension = D3D12_RESOURCE_DIMENSION_BUFFER;
        rd.Width = size;
        rd.Height = 1;
        rd.DepthOrArraySize = 1;
        rd.MipLevels = 1;
        rd.Format = DXGI_FORMAT_UNKNOWN;
        rd.SampleDesc.Count = 1;
        rd.Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR;
        rd.Flags = type == D3D12_HEAP_TYPE_DEFAULT ? D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS : D3D12_RESOURCE_FLAG_NONE;
        D3D12_RESOURCE_STATES state = type == D3D12_HEAP_TYPE_UPLOAD     ? D3D12_RESOURCE_STATE_GENERIC_READ
                                      : type == D3D12_HEAP_TYPE_READBACK ? D3D12_RESOURCE_STATE_COPY_DEST
                                                                         : D3D12_RESOURCE_STATE_COMMON;
        b.resource.reset();
        b.capacity = 0;
        HRESULT hr = device_->CreateCommittedResource(&hp, D3D12_HEAP_FLAG_NONE, &rd, state, nullptr,
                                                      __uuidof(ID3D12Resource), b.resource.put_void());
        if (FAILED(hr)) throw HrError{hr, std::string("ID3D12Device::CreateCommittedResource(") + what + ", " +
                                              std::to_string(size) + " bytes)"};
        b.capacity = size;
    }

    void transition(ID3D12Resource* r, D3D12_RESOURCE_STATES before, D3D12_RESOURCE_STATES after) {
        D3D12_RESOURCE_BARRIER b{};
        b.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
        b.Transition.pResource = r;
        b.Transition.Subresource = D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES;
        b.Transition.StateBefore = before;
        b.Transition.StateAfter = after;
        list_->ResourceBarrier(1, &b);
    }

    void uav_barrier() {
        D3D12_RESOURCE_BARRIER b{};
        b.Type = D3D12_RESOURCE_BARRIER_TYPE_UAV;
        b.UAV.pResource = nullptr;
        list_->ResourceBarrier(1, &b);
    }

    void wait_idle() {
        ++fence_value_;
        CHECK(queue_->Signal(fence_.p, fence_value_), "ID3D12CommandQueue::Signal");
        if (fence_->GetCompletedValue() < fence_value_) {
            CHECK(fence_->SetEventOnCompletion(fence_value_, event_), "ID3D12Fence::SetEventOnCompletion");
            WaitForSingleObject(event_, INFINITE);
        }
        HRESULT removed = device_->GetDeviceRemovedReason();
        if (FAILED(removed)) throw HrError{removed, "ID3D12Device::GetDeviceRemovedReason (after the dispatch)"};
    }

    std::string d3d_feature_level() {
        D3D_FEATURE_LEVEL levels[] = {D3D_FEATURE_LEVEL_11_0, D3D_FEATURE_LEVEL_11_1, D3D_FEATURE_LEVEL_12_0,
                                      D3D_FEATURE_LEVEL_12_1, static_cast<D3D_FEATURE_LEVEL>(0xc200)};
        D3D12_FEATURE_DATA_FEATURE_LEVELS fl{};
        fl.NumFeatureLevels = 4;  // 12_2 (0xc200) only where the runtime knows it
        fl.pFeatureLevelsRequested = levels;
        for (UINT count : {5u, 4u}) {
            fl.NumFeatureLevels = count;
            if (SUCCEEDED(device_->CheckFeatureSupport(D3D12_FEATURE_FEATURE_LEVELS, &fl, sizeof fl))) {
                unsigned v = static_cast<unsigned>(fl.MaxSupportedFeatureLevel);
                return std::to_string(v >> 12) + "_" + std::to_string((v >> 8) & 0xf);
            }
        }
        return "unknown";
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

    std::string driver_version() {
        LARGE_INTEGER umd{};
        if (FAILED(adapter_->CheckInterfaceSupport(__uuidof(IDXGIDevice), &umd))) return "unknown";
        return std::to_string(HIWORD(umd.HighPart)) + "." + std::to_string(LOWORD(umd.HighPart)) + "." +
               std::to_string(HIWORD(umd.LowPart)) + "." + std::to_string(LOWORD(umd.LowPart));
    }

    static std::string file_version(const std::wstring& path) {
        DWORD ignored = 0;
        DWORD size = GetFileVersionInfoSizeW(path.c_str(), &ignored);
        if (!size) return "unknown";
        std::vector<unsigned char> data(size);
        if (!GetFileVersionInfoW(path.c_str(), 0, size, data.data())) return "unknown";
        VS_FIXEDFILEINFO* info = nullptr;
        UINT len = 0;
        if (!VerQueryValueW(data.data(), L"\\", reinterpret_cast<void**>(&info), &len) || !info) return "unknown";
        return std::to_string(HIWORD(info->dwFileVersionMS)) + "." + std::to_string(LOWORD(info->dwFileVersionMS)) +
               "." + std::to_string(HIWORD(info->dwFileVersionLS)) + "." + std::to_string(LOWORD(info->dwFileVersionLS));
    }
};

void send_error(const std::string& status, const std::string& call, HRESULT hr, const std::string& extra) {
    JsonWriter w;
    w.str("status", status).str("call", call);
    if (hr) w.str("hresult", hex32(static_cast<uint32_t>(hr)));
    if (!extra.empty()) w.str("message", extra);
    write_frame(w.done());
}

}  // namespace

int wmain(int argc, wchar_t** argv) {
    _setmode(_fileno(stdin), _O_BINARY);
    _setmode(_fileno(stdout), _O_BINARY);
    std::wstring dll = L"DirectML.dll";
    std::string adapter;
    for (int i = 1; i < argc; ++i) {
        std::wstring a = argv[i];
        if (a == L"--dml-dll" && i + 1 < argc) dll = argv[++i];
        else if (a == L"--adapter" && i + 1 < argc) adapter = utf8(argv[++i]);
    }
    std::unique_ptr<Runner> runner;
    try {
        runner.reset(new Runner(dll, adapter));
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
                write_frame(runner->info());
            } else if (op == "run") {
                try {
                    runner->run(req, payload);
                } catch (const HrError& e) {
                    send_error("failed", e.call, e.hr, "device removed reason: " + runner->removed_reason());
                }
            } else {
                throw ProtocolError{"unknown op '" + op + "'"};
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
