package io.github.rdmacounters.verbs;

import java.util.EnumMap;
import java.util.Map;

import com.sun.jna.Function;
import com.sun.jna.Pointer;
import org.jspecify.annotations.Nullable;

/**
 * The provider ops of a context that {@code verbs.h} reaches through
 * {@code static inline} functions, looked up once at open as {@code verbs_get_ctx_op}
 * does: the context must be extended ({@code abi_compat == UINTPTR_MAX}),
 * {@code verbs_context.sz} must cover the op, and the pointer must be non-NULL. A missing
 * op gives {@code EOPNOTSUPP}, as the inline does.
 */
final class VerbsOps {

	/** {@code sizeof(struct ibv_context)} on x86_64. */
	static final int SIZEOF_IBV_CONTEXT = 328;

	/** {@code offsetof(struct ibv_context, abi_compat)}. */
	static final int ABI_COMPAT_OFFSET = 320;

	/** {@code __VERBS_ABI_IS_EXTENDED}: {@code (void *) UINTPTR_MAX}. */
	static final long VERBS_ABI_IS_EXTENDED = -1L;

	/** Offset of {@code struct verbs_context.sz}, from the {@code struct ibv_context}. */
	static final int SZ_OFFSET = -8;

	enum Op {

		/** The full-size {@code ibv_query_port}. */
		QUERY_PORT("ibv_query_port", -320),

		READ_COUNTERS("ibv_read_counters", -296),

		ATTACH_COUNTERS_POINT_FLOW("ibv_attach_counters_point_flow", -288),

		CREATE_COUNTERS("ibv_create_counters", -280),

		DESTROY_COUNTERS("ibv_destroy_counters", -272),

		DESTROY_FLOW("ibv_destroy_flow", -96),

		CREATE_FLOW("ibv_create_flow", -80);

		private final String verb;

		private final int offset;

		Op(String verb, int offset) {
			this.verb = verb;
			this.offset = offset;
		}

		String verb() {
			return this.verb;
		}

		int offset() {
			return this.offset;
		}

		// The sz a context needs for this op to exist
		long neededSize() {
			return -this.offset + SIZEOF_IBV_CONTEXT;
		}

	}

	private final Map<Op, Function> functions;

	private final boolean extended;

	private final long size;

	private VerbsOps(Map<Op, Function> functions, boolean extended, long size) {
		this.functions = functions;
		this.extended = extended;
		this.size = size;
	}

	static VerbsOps of(Pointer context) {
		Map<Op, Function> functions = new EnumMap<>(Op.class);
		boolean extended = context.getLong(ABI_COMPAT_OFFSET) == VERBS_ABI_IS_EXTENDED;
		long size = extended ? context.getLong(SZ_OFFSET) : 0;
		if (extended) {
			for (Op op : Op.values()) {
				if (size < op.neededSize()) {
					continue;
				}
				Pointer function = context.getPointer(op.offset());
				if (function != null) {
					functions.put(op, Function.getFunction(function));
				}
			}
		}
		return new VerbsOps(functions, extended, size);
	}

	// null where the inline would give EOPNOTSUPP
	@Nullable Function get(Op op) {
		return this.functions.get(op);
	}

	String whyMissing(Op op) {
		if (!this.extended) {
			return "the provider's context is not an extended one (abi_compat), so it has no " + op.verb()
					+ " op; upgrade rdma-core";
		}
		if (this.size < op.neededSize()) {
			return "the provider's op table (sz " + this.size + ") predates " + op.verb() + " (needs sz "
					+ op.neededSize() + "); upgrade rdma-core";
		}
		return "the provider does not implement " + op.verb();
	}

	boolean extended() {
		return this.extended;
	}

	long size() {
		return this.size;
	}

}
