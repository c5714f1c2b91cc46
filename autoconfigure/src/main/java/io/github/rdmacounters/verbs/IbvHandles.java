package io.github.rdmacounters.verbs;

import com.sun.jna.Pointer;
import com.sun.jna.PointerType;

/**
 * Typed opaque handles of libibverbs objects. A handle never leaves the binding and never
 * appears in a message.
 *
 * @author rdma-counters
 */
public final class IbvHandles {

	private IbvHandles() {
	}

	/** {@code struct ibv_device *}. */
	public static final class IbvDevice extends PointerType {

		/** Create a null handle (JNA needs it). */
		public IbvDevice() {
		}

		IbvDevice(Pointer pointer) {
			super(pointer);
		}

	}

	/** {@code struct ibv_context *}. */
	public static final class IbvContext extends PointerType {

		/** Create a null handle (JNA needs it). */
		public IbvContext() {
		}

	}

	/** {@code struct ibv_pd *}. */
	public static final class IbvPd extends PointerType {

		/** Create a null handle (JNA needs it). */
		public IbvPd() {
		}

	}

	/** {@code struct ibv_cq *}. */
	public static final class IbvCq extends PointerType {

		/** Create a null handle (JNA needs it). */
		public IbvCq() {
		}

	}

	/** {@code struct ibv_qp *}. */
	public static final class IbvQp extends PointerType {

		/** Create a null handle (JNA needs it). */
		public IbvQp() {
		}

	}

	/** {@code struct ibv_counters *}; returned by a provider op, so built from its pointer. */
	public static final class IbvCounters extends PointerType {

		/** Create a null handle (JNA needs it). */
		public IbvCounters() {
		}

		IbvCounters(Pointer pointer) {
			super(pointer);
		}

	}

	/** {@code struct ibv_flow *}; returned by a provider op, so built from its pointer. */
	public static final class IbvFlow extends PointerType {

		/** Create a null handle (JNA needs it). */
		public IbvFlow() {
		}

		IbvFlow(Pointer pointer) {
			super(pointer);
		}

	}

}
