// dml_runner: runs DML_SLICE, DML_SLICE1, DML_PADDING, DML_SPLIT, DML_PADDING1 and DML_JOIN exactly as a case describes them.
//
// One long-lived process per backend instance: one D3D12 device, one shader-visible descriptor heap
// (creating one costs seconds under vkd3d, so it is made once and reused), one IDMLDevice per minimum
// feature level asked for.  Cases arrive on stdin and results leave on stdout as frames (dml_common.h).
//
// Requests: {"op":"info"}, {"op":"run", ...} with the input tensor's bytes as payload, {"op":"quit"}.
// A response to "run" carries the outputs' bytes, one after another, lengths in its header.
// Every HRESULT is checked and a failure names the call that returned it.  The program never judges a
// result: it reports what DirectML accepted, refused and wrote; the Python side compares.
//
// Built by conformance/backends/directml/build.py with mingw-w64 (Linux, run under Wine) or MSVC,
// clang-cl or mingw on Windows, against Microsoft's DirectML.h and the D3D12 headers.

#include "dml_common.h"

namespace {

const std::map<std::string, DML_PADDING_MODE>& padding_modes() {
    static const std::map<std::string, DML_PADDING_MODE> m = {
        {"CONSTANT", DML_PADDING_MODE_CONSTANT},
        {"EDGE", DML_PADDING_MODE_EDGE},
        {"REFLECTION", DML_PADDING_MODE_REFLECTION},
        {"SYMMETRIC", DML_PADDING_MODE_SYMMETRIC},
        {"WRAP", DML_PADDING_MODE_WRAP},  // DML_TARGET_VERSION 0x6400: feature level 6.4
    };
    return m;
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
        int64_t align = j.has("alignment") ? j.at("alignment").integer(what + ".alignment") : 0;
        if (align < 0 || align > UINT32_MAX) throw ProtocolError{what + ".alignment is outside UINT"};
        buffer.GuaranteedBaseOffsetAlignment = static_cast<UINT>(align);
        desc.Type = DML_TENSOR_TYPE_BUFFER;
        desc.Desc = &buffer;
    }
};

// The operator's struct and everything its pointers reach.
struct OperatorDesc {
    std::string name;
    std::vector<Tensor> inputs;  // one, but for JOIN
    std::vector<DML_TENSOR_DESC> input_descs;
    std::vector<Tensor> outputs;
    std::vector<DML_TENSOR_DESC> output_descs;
    std::vector<UINT> a, b, c;  // the per-dimension arrays, in the struct's order
    std::vector<INT> strides1;
    DML_SLICE_OPERATOR_DESC slice{};
    DML_SLICE1_OPERATOR_DESC slice1{};
    DML_PADDING_OPERATOR_DESC padding{};
    DML_PADDING1_OPERATOR_DESC padding1{};
    DML_SPLIT_OPERATOR_DESC split{};
    DML_JOIN_OPERATOR_DESC join{};
    DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC identity{};
    DML_OPERATOR_DESC op{};

    void init(const Json& req) {
        name = req.at("operator").str("operator");
        const Json& tensors = req.at("tensors");
        const Json& ins = tensors.at("inputs");
        if (ins.kind != Json::Array) throw ProtocolError{"tensors.inputs is not an array"};
        // JOIN may state InputCount 0 with no InputTensors (JOIN.2: DirectML's to refuse); every other operator has one.
        if (ins.items.empty() && name != "JOIN") throw ProtocolError{"tensors.inputs is empty"};
        inputs.resize(ins.items.size());  // sized once: each desc points into its Tensor
        for (size_t i = 0; i < ins.items.size(); ++i) inputs[i].init(ins.items[i], "input_tensors");
        for (auto& t : inputs) input_descs.push_back(t.desc);
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
            slice = {&input_descs.at(0), &output_descs.at(0), dims, a.data(), b.data(), c.data()};
            op = {DML_OPERATOR_SLICE, &slice};
        } else if (name == "SLICE1") {
            a = uints(f.at("window_offsets"), "window_offsets");
            b = uints(f.at("window_sizes"), "window_sizes");
            strides1 = ints(f.at("window_strides"), "window_strides");
            slice1 = {&input_descs.at(0), &output_descs.at(0), dims, a.data(), b.data(), strides1.data()};
            op = {DML_OPERATOR_SLICE1, &slice1};
        } else if (name == "PADDING") {
            a = uints(f.at("start_padding"), "start_padding");
            b = uints(f.at("end_padding"), "end_padding");
            // PaddingValue is a FLOAT in the struct; its bits arrive exactly (NaN payloads included).
            uint32_t bits = static_cast<uint32_t>(f.at("padding_value_bits").integer("padding_value_bits"));
            FLOAT value;
            std::memcpy(&value, &bits, sizeof value);
            DML_PADDING_MODE mode = lookup(padding_modes(), f.at("padding_mode").str("padding_mode"), "padding mode");
            padding = {&input_descs.at(0), &output_descs.at(0), mode, value, dims, a.data(), b.data()};
            op = {DML_OPERATOR_PADDING, &padding};
        } else if (name == "PADDING1") {
            a = uints(f.at("start_padding"), "start_padding");
            b = uints(f.at("end_padding"), "end_padding");
            DML_PADDING_MODE mode = lookup(padding_modes(), f.at("padding_mode").str("padding_mode"), "padding mode");
            DML_TENSOR_DATA_TYPE value_type =
                lookup(data_types(), f.at("padding_value_data_type").str("padding_value_data_type"), "data type");
            // DML_SCALAR_UNION: the value's bits in its type's width, little-endian, the rest of the 8 bytes zero.
            uint64_t bits = f.at("padding_value_bits").uint64("padding_value_bits");
            DML_SCALAR_UNION value{};
            std::memcpy(value.Bytes, &bits, sizeof bits);
            padding1 = {&input_descs.at(0), &output_descs.at(0), mode, value_type, value, dims, a.data(), b.data()};
            op = {DML_OPERATOR_PADDING1, &padding1};
        } else if (name == "SPLIT") {
            UINT count = static_cast<UINT>(f.at("output_count").integer("output_count"));
            UINT axis = static_cast<UINT>(f.at("axis").integer("axis"));
            split = {&input_descs.at(0), count, output_descs.data(), axis};
            op = {DML_OPERATOR_SPLIT, &split};
        } else if (name == "JOIN") {
            UINT count = static_cast<UINT>(f.at("input_count").integer("input_count"));
            UINT axis = static_cast<UINT>(f.at("axis").integer("axis"));
            join = {count, input_descs.data(), &output_descs.at(0), axis};
            op = {DML_OPERATOR_JOIN, &join};
        } else if (name == "ELEMENT_WISE_IDENTITY") {
            // Not under test: the self-test that the device and driver stack copy data at all.
            identity = {&input_descs.at(0), &output_descs.at(0), nullptr};
            op = {DML_OPERATOR_ELEMENT_WISE_IDENTITY, &identity};
        } else {
            throw ProtocolError{"unknown operator '" + name + "'"};
        }
    }
};

// A DML graph (IDMLDevice1::CompileGraph): operator nodes, each an OperatorDesc, and the edges between the
// graph's inputs, the nodes and the graph's outputs, as the request states them.
struct Graph {
    std::vector<std::unique_ptr<OperatorDesc>> nodes;  // pointers: each desc points into itself
    std::vector<Tensor> inputs, outputs;  // the graph's, bound like an operator's
    std::vector<DML_INPUT_GRAPH_EDGE_DESC> input_edges;
    std::vector<DML_OUTPUT_GRAPH_EDGE_DESC> output_edges;
    std::vector<DML_INTERMEDIATE_GRAPH_EDGE_DESC> intermediate_edges;

    static std::vector<std::vector<UINT>> edges(const Json& g, const char* key, size_t width) {
        std::vector<std::vector<UINT>> out;
        if (!g.has(key)) return out;
        const Json& list = g.at(key);
        if (list.kind != Json::Array) throw ProtocolError{std::string("graph.") + key + " is not an array"};
        for (const auto& e : list.items) {
            out.push_back(uints(e, std::string("graph.") + key));
            if (out.back().size() != width)
                throw ProtocolError{std::string("graph.") + key + " entries have " + std::to_string(width) + " numbers"};
        }
        return out;
    }

    void init(const Json& g) {
        const Json& ns = g.at("nodes");
        if (ns.kind != Json::Array || ns.items.empty()) throw ProtocolError{"graph.nodes is not a non-empty array"};
        for (const auto& n : ns.items) {
            nodes.emplace_back(new OperatorDesc);
            nodes.back()->init(n);
        }
        const Json& ins = g.at("inputs");
        inputs.resize(ins.items.size());
        for (size_t i = 0; i < ins.items.size(); ++i) inputs[i].init(ins.items[i], "graph.inputs");
        const Json& outs = g.at("outputs");
        outputs.resize(outs.items.size());
        for (size_t i = 0; i < outs.items.size(); ++i) outputs[i].init(outs.items[i], "graph.outputs");
        for (const auto& e : edges(g, "input_edges", 3)) input_edges.push_back({e[0], e[1], e[2], nullptr});
        for (const auto& e : edges(g, "output_edges", 3)) output_edges.push_back({e[0], e[1], e[2], nullptr});
        for (const auto& e : edges(g, "intermediate_edges", 4))
            intermediate_edges.push_back({e[0], e[1], e[2], e[3], nullptr});
    }

    bool uses_input(UINT index) const {
        for (const auto& e : input_edges)
            if (e.GraphInputIndex == index) return true;
        return false;
    }

    // Create each node's operator, then compile the graph.  On a refusal: the call (naming the node) and HRESULT.
    HRESULT compile(IDMLDevice* dml, bool check_only, Com<IDMLCompiledOperator>& compiled, std::string& call) {
        std::vector<Com<IDMLOperator>> ops(nodes.size());
        std::vector<DML_OPERATOR_GRAPH_NODE_DESC> op_nodes(nodes.size());
        std::vector<DML_GRAPH_NODE_DESC> node_descs(nodes.size());
        for (size_t n = 0; n < nodes.size(); ++n) {
            HRESULT hr = dml->CreateOperator(&nodes[n]->op, __uuidof(IDMLOperator), ops[n].put_void());
            if (FAILED(hr)) {
                call = "IDMLDevice::CreateOperator (graph node " + std::to_string(n) + ", " + nodes[n]->name + ")";
                return hr;
            }
            op_nodes[n] = {ops[n].p, nullptr};
            node_descs[n] = {DML_GRAPH_NODE_TYPE_OPERATOR, &op_nodes[n]};
        }
        if (check_only) return S_OK;
        std::vector<DML_GRAPH_EDGE_DESC> in_e, out_e, mid_e;
        for (auto& e : input_edges) in_e.push_back({DML_GRAPH_EDGE_TYPE_INPUT, &e});
        for (auto& e : output_edges) out_e.push_back({DML_GRAPH_EDGE_TYPE_OUTPUT, &e});
        for (auto& e : intermediate_edges) mid_e.push_back({DML_GRAPH_EDGE_TYPE_INTERMEDIATE, &e});
        DML_GRAPH_DESC desc{static_cast<UINT>(inputs.size()),
                            static_cast<UINT>(outputs.size()),
                            static_cast<UINT>(node_descs.size()),
                            node_descs.data(),
                            static_cast<UINT>(in_e.size()),
                            in_e.empty() ? nullptr : in_e.data(),
                            static_cast<UINT>(out_e.size()),
                            out_e.data(),
                            static_cast<UINT>(mid_e.size()),
                            mid_e.empty() ? nullptr : mid_e.data()};
        Com<IDMLDevice1> dml1;
        CHECK(dml->QueryInterface(__uuidof(IDMLDevice1), dml1.put_void()), "IDMLDevice::QueryInterface(IDMLDevice1)");
        HRESULT hr = dml1->CompileGraph(&desc, DML_EXECUTION_FLAG_NONE, __uuidof(IDMLCompiledOperator),
                                        compiled.put_void());
        if (FAILED(hr)) call = "IDMLDevice1::CompileGraph";
        return hr;
    }
};

// ------------------------------------------------------------------------------------------------
// The device and the reusable resources.
// ------------------------------------------------------------------------------------------------

constexpr uint64_t kAlign = DML_MINIMUM_BUFFER_TENSOR_ALIGNMENT;  // 16
constexpr uint64_t kGuard = 256;  // bytes after each output that must stay untouched
constexpr unsigned char kPoison = 0xCD;  // what unwritten output bytes hold
constexpr UINT kHeapDescriptors = 1024;

uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

struct Buffer {  // a committed buffer that grows when a case needs more
    Com<ID3D12Resource> resource;
    uint64_t capacity = 0;
};

class Runner : public Program {
public:
    explicit Runner(Device& device) : dev_(device) {
        ID3D12Device* d3d = dev_.d3d12();
        CHECK(d3d->CreateCommandAllocator(D3D12_COMMAND_LIST_TYPE_COMPUTE, __uuidof(ID3D12CommandAllocator),
                                          allocator_.put_void()),
              "ID3D12Device::CreateCommandAllocator");
        CHECK(d3d->CreateCommandList(0, D3D12_COMMAND_LIST_TYPE_COMPUTE, allocator_.p, nullptr,
                                     __uuidof(ID3D12GraphicsCommandList), list_.put_void()),
              "ID3D12Device::CreateCommandList");
        CHECK(list_->Close(), "ID3D12GraphicsCommandList::Close");
        CHECK(d3d->CreateFence(0, D3D12_FENCE_FLAG_NONE, __uuidof(ID3D12Fence), fence_.put_void()),
              "ID3D12Device::CreateFence");
        event_ = CreateEventW(nullptr, FALSE, FALSE, nullptr);
        if (!event_) throw HrError{HRESULT_FROM_WIN32(GetLastError()), "CreateEventW"};
        // Creating a descriptor heap costs seconds and ~1.5 GB under vkd3d: one, made once, reused.
        make_heap(kHeapDescriptors);
    }

    std::string info() override {
        JsonWriter w;
        dev_.describe(w);
        w.u64("descriptor_heap_size", heap_size_);
        return w.done();
    }

    void handle(const std::string& op, const Json& req, const std::vector<unsigned char>& payload) override {
        if (op != "run") throw ProtocolError{"unknown op '" + op + "'"};
        run(req, payload);
    }

    std::string removed_reason() override { return dev_.removed_reason(); }

    // Create (and unless check_only, compile, initialise, bind, dispatch, read back) one operator.
    void run(const Json& req, const std::vector<unsigned char>& input_bytes) {
        LARGE_INTEGER t0, t1, t2, t3, t4, freq;
        QueryPerformanceFrequency(&freq);
        auto seconds = [&](const LARGE_INTEGER& a, const LARGE_INTEGER& b) {
            return static_cast<double>(b.QuadPart - a.QuadPart) / static_cast<double>(freq.QuadPart);
        };
        DML_FEATURE_LEVEL level = lookup(feature_levels(), req.at("min_feature_level").str("min_feature_level"),
                                         "feature level");
        IDMLDevice* dml = dev_.dml_device(level);
        bool check_only = req.has("check_only") && req.at("check_only").b;
        auto refused = [&](const std::string& call, HRESULT hr) {
            QueryPerformanceCounter(&t1);
            write_frame(JsonWriter()
                            .str("status", "refused")
                            .str("call", call)
                            .str("hresult", hex32(static_cast<uint32_t>(hr)))
                            .num("create_s", seconds(t0, t1))
                            .done());
        };
        OperatorDesc d;
        Graph g;
        Com<IDMLCompiledOperator> compiled;
        QueryPerformanceCounter(&t0);
        if (req.has("graph")) {  // --dml-path graph: the nodes compiled as one DML graph
            g.init(req.at("graph"));
            std::string call;
            HRESULT hr = g.compile(dml, check_only, compiled, call);
            if (FAILED(hr)) return refused(call, hr);
            QueryPerformanceCounter(&t1);
            if (check_only) {
                write_frame(JsonWriter().str("status", "accepted").num("create_s", seconds(t0, t1)).done());
                return;
            }
        } else {
            d.init(req);
            Com<IDMLOperator> op;
            HRESULT hr = dml->CreateOperator(&d.op, __uuidof(IDMLOperator), op.put_void());
            if (FAILED(hr)) return refused("IDMLDevice::CreateOperator", hr);
            QueryPerformanceCounter(&t1);
            if (check_only) {
                write_frame(JsonWriter().str("status", "accepted").num("create_s", seconds(t0, t1)).done());
                return;
            }
            hr = dml->CompileOperator(op.p, DML_EXECUTION_FLAG_NONE, __uuidof(IDMLCompiledOperator),
                                      compiled.put_void());
            if (FAILED(hr)) throw HrError{hr, "IDMLDevice::CompileOperator"};
        }
        std::vector<Tensor>& inputs = req.has("graph") ? g.inputs : d.inputs;
        std::vector<Tensor>& outputs = req.has("graph") ? g.outputs : d.outputs;
        IDMLCompiledOperator* ops[] = {compiled.p};
        Com<IDMLOperatorInitializer> init;
        CHECK(dml->CreateOperatorInitializer(1, ops, __uuidof(IDMLOperatorInitializer), init.put_void()),
              "IDMLDevice::CreateOperatorInitializer");
        QueryPerformanceCounter(&t2);

        // The payload holds the inputs one after another, each TotalTensorSizeInBytes long.
        uint64_t expected_bytes = 0;
        for (const auto& t : inputs) expected_bytes += t.buffer.TotalTensorSizeInBytes;
        if (input_bytes.size() != expected_bytes)
            throw ProtocolError{"input payload has " + std::to_string(input_bytes.size()) + " bytes, the inputs' " +
                                "total_size values add up to " + std::to_string(expected_bytes)};
        // Layout in one default buffer: the inputs, then each output followed by guard bytes.
        uint64_t at = 0;
        // Each binding offset a multiple of the tensor's GuaranteedBaseOffsetAlignment (and of 16).
        for (auto& t : inputs) {
            t.offset = at = align_up(at, std::max<uint64_t>(kAlign, t.buffer.GuaranteedBaseOffsetAlignment));
            t.region = align_up(std::max<uint64_t>(t.buffer.TotalTensorSizeInBytes, 4), kAlign);
            at += t.region;
        }
        for (auto& t : outputs) {
            t.offset = at = align_up(at, std::max<uint64_t>(kAlign, t.buffer.GuaranteedBaseOffsetAlignment));
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

        // Upload: poison everywhere (every output region and its guard), then each input's bytes at its offset.
        unsigned char* mapped = nullptr;
        D3D12_RANGE none{0, 0};
        CHECK(upload_.resource->Map(0, &none, reinterpret_cast<void**>(&mapped)), "ID3D12Resource::Map(upload)");
        std::memset(mapped, kPoison, used);
        uint64_t from = 0;
        for (const auto& t : inputs) {
            uint64_t n = t.buffer.TotalTensorSizeInBytes;
            if (n) std::memcpy(mapped + t.offset, input_bytes.data() + from, static_cast<size_t>(n));
            from += n;
        }
        upload_.resource->Unmap(0, nullptr);

        // Binding tables: the initializer's descriptors first, the operator's after them.
        D3D12_CPU_DESCRIPTOR_HANDLE cpu = heap_->GetCPUDescriptorHandleForHeapStart();
        D3D12_GPU_DESCRIPTOR_HANDLE gpu = heap_->GetGPUDescriptorHandleForHeapStart();
        UINT step = dev_.d3d12()->GetDescriptorHandleIncrementSize(D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
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
        std::vector<DML_BUFFER_BINDING> in_bindings, owned_bindings;
        std::vector<DML_BINDING_DESC> in_descs;
        bool any_owned = false;
        in_bindings.reserve(inputs.size());
        for (const auto& t : inputs) {
            bool owned = (t.buffer.Flags & DML_TENSOR_FLAG_OWNED_BY_DML) != 0;
            any_owned = any_owned || owned;
            in_bindings.push_back({default_.resource.p, t.offset, t.buffer.TotalTensorSizeInBytes});
            // An OWNED_BY_DML input is given to the initializer, not to the dispatch.
            owned_bindings.push_back(owned ? in_bindings.back() : DML_BUFFER_BINDING{nullptr, 0, 0});
        }
        for (size_t i = 0; i < inputs.size(); ++i) {
            bool owned = owned_bindings[i].Buffer != nullptr;
            // A graph input no edge uses is bound to nothing (GRAPH.3: nothing reads it).
            bool unused = req.has("graph") && !g.uses_input(static_cast<UINT>(i));
            bool none = owned || unused;
            in_descs.push_back({none ? DML_BINDING_TYPE_NONE : DML_BINDING_TYPE_BUFFER, none ? nullptr : &in_bindings[i]});
        }
        DML_BUFFER_ARRAY_BINDING owned_array{static_cast<UINT>(owned_bindings.size()), owned_bindings.data()};
        DML_BINDING_DESC owned_desc{DML_BINDING_TYPE_BUFFER_ARRAY, &owned_array};
        if (any_owned) init_table->BindInputs(1, &owned_desc);
        if (init_props.TemporaryResourceSize) init_table->BindTemporaryResource(&temp_desc);
        if (exec_props.PersistentResourceSize) init_table->BindOutputs(1, &persistent_desc);
        exec_table->BindInputs(static_cast<UINT>(in_descs.size()), in_descs.data());
        std::vector<DML_BUFFER_BINDING> out_bindings;
        out_bindings.reserve(outputs.size());
        for (const auto& t : outputs)
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
        copy(default_.resource.p, upload_.resource.p, used);
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
        copy(readback_.resource.p, default_.resource.p, used);
        transition(default_.resource.p, D3D12_RESOURCE_STATE_COPY_SOURCE, D3D12_RESOURCE_STATE_COMMON);
        CHECK(list_->Close(), "ID3D12GraphicsCommandList::Close");
        ID3D12CommandList* lists[] = {list_.p};
        dev_.queue()->ExecuteCommandLists(1, lists);
        wait_idle();
        QueryPerformanceCounter(&t3);

        // Read back the outputs and check their guards.
        D3D12_RANGE all{0, static_cast<SIZE_T>(used)};
        CHECK(readback_.resource->Map(0, &all, reinterpret_cast<void**>(&mapped)), "ID3D12Resource::Map(readback)");
        std::string sizes, guards;
        std::vector<std::pair<const void*, size_t>> payload;
        std::vector<unsigned char> copy(mapped, mapped + used);
        readback_.resource->Unmap(0, &none);
        for (const auto& t : outputs) {
            uint64_t n = t.buffer.TotalTensorSizeInBytes;
            // The tensor's bytes and the guard after them: the suite judges every one.
            payload.emplace_back(copy.data() + t.offset, static_cast<size_t>(n + kGuard));
            sizes += (sizes.empty() ? "" : ",") + std::to_string(n + kGuard);
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
                        .u64("guard_bytes", kGuard)
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

private:
    Device& dev_;
    Com<ID3D12CommandAllocator> allocator_;
    Com<ID3D12GraphicsCommandList> list_;
    Com<ID3D12Fence> fence_;
    UINT64 fence_value_ = 0;
    HANDLE event_ = nullptr;
    Com<ID3D12DescriptorHeap> heap_;
    UINT heap_size_ = 0;
    Buffer default_, upload_, readback_, temporary_;
    std::map<DML_FEATURE_LEVEL, Com<IDMLCommandRecorder>> recorders_;

    void make_heap(UINT size) {
        D3D12_DESCRIPTOR_HEAP_DESC hd{};
        hd.Type = D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV;
        hd.NumDescriptors = size;
        hd.Flags = D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE;
        heap_.reset();
        CHECK(dev_.d3d12()->CreateDescriptorHeap(&hd, __uuidof(ID3D12DescriptorHeap), heap_.put_void()),
              "ID3D12Device::CreateDescriptorHeap");
        heap_size_ = size;
    }

    IDMLCommandRecorder* recorder(DML_FEATURE_LEVEL level) {
        auto it = recorders_.find(level);
        if (it != recorders_.end()) return it->second.p;
        Com<IDMLCommandRecorder> rec;
        CHECK(dev_.dml_device(level)->CreateCommandRecorder(__uuidof(IDMLCommandRecorder), rec.put_void()),
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
        HRESULT hr = dev_.d3d12()->CreateCommittedResource(&hp, D3D12_HEAP_FLAG_NONE, &rd, state, nullptr,
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

    // Buffer copies in pieces of at most 1 GiB: lavapipe (Mesa 25) crashes in a single copy of 2 GiB or more
    // (a memcpy in its queue thread), and D3D12 gives any split the same result.
    void copy(ID3D12Resource* dst, ID3D12Resource* src, uint64_t bytes) {
        constexpr uint64_t kPiece = uint64_t(1) << 30;
        for (uint64_t at = 0; at < bytes; at += kPiece)
            list_->CopyBufferRegion(dst, at, src, at, std::min(kPiece, bytes - at));
    }

    void uav_barrier() {
        D3D12_RESOURCE_BARRIER b{};
        b.Type = D3D12_RESOURCE_BARRIER_TYPE_UAV;
        b.UAV.pResource = nullptr;
        list_->ResourceBarrier(1, &b);
    }

    void wait_idle() {
        ++fence_value_;
        CHECK(dev_.queue()->Signal(fence_.p, fence_value_), "ID3D12CommandQueue::Signal");
        if (fence_->GetCompletedValue() < fence_value_) {
            CHECK(fence_->SetEventOnCompletion(fence_value_, event_), "ID3D12Fence::SetEventOnCompletion");
            WaitForSingleObject(event_, INFINITE);
        }
        HRESULT removed = dev_.d3d12()->GetDeviceRemovedReason();
        if (FAILED(removed)) throw HrError{removed, "ID3D12Device::GetDeviceRemovedReason (after the dispatch)"};
    }

};

}  // namespace

int wmain(int argc, wchar_t** argv) {
    return serve(argc, argv, [](const Args& args) -> std::unique_ptr<Program> {
        auto dll = args.count(L"--dml-dll") ? args.at(L"--dml-dll") : L"DirectML.dll";
        auto adapter = args.count(L"--adapter") ? utf8(args.at(L"--adapter").c_str()) : std::string();
        static std::unique_ptr<Device> device;  // outlives the runner that borrows it
        device.reset(new Device(dll, adapter));
        return std::unique_ptr<Program>(new Runner(*device));
    });
}
