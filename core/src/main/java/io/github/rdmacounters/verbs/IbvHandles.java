package io.github.rdmacounters.verbs;

import com.sun.jna.Pointer;
import com.sun.jna.PointerType;

/**
 * Typed opaque handles of libibverbs objects. A handle never leaves the binding and never
 * appears in a message.
 *
 * @since 0.1.0
 * @author rdma-counters
 */
public final class IbvHandles {

	private IbvHandles() {
	}

	/**
	 * Describe a handle without its address, which {@link PointerType#toString()} would
	 * print.
	 * @param type the C struct name
	 * @param handle the handle
	 * @return e.g. {@code struct ibv_counters *}
	 */
	static String describe(String type, PointerType handle) {
		return "struct " + type + ((handle.getPointer() != null) ? " *" : " * (null)");
	}

	/** {@code struct ibv_device *}. */
	public static final class IbvDevice extends PointerType {

		/** Create a null handle (JNA needs it). */
		public IbvDevice() {
		}

		IbvDevice(Pointer pointer) {
			super(pointer);
		}

		@Override
		public String toString() {
			return describe("ibv_device", this);
		}

	}

	/** {@code struct ibv_context *}. */
	public static final class IbvContext extends PointerType {

		/** Create a null handle (JNA needs it). */
		public IbvContext() {
		}

		@Override
		public String toString() {
			return describe("ibv_context", this);
		}

	}

	/** {@code struct ibv_pd *}. */
	public static final class IbvPd extends PointerType {

		/** Create a null handle (JNA needs it). */
		public IbvPd() {
		}

		@Override
		public String toString() {
			return describe("ibv_pd", this);
		}

	}

	/** {@code struct ibv_cq *}. */
	public static final class IbvCq extends PointerType {

		/** Create a null handle (JNA needs it). */
		public IbvCq() {
		}

		@Override
		public String toString() {
			return describe("ibv_cq", this);
		}

	}

	/** {@code struct ibv_qp *}. */
	public static final class IbvQp extends PointerType {

		/** Create a null handle (JNA needs it). */
		public IbvQp() {
		}

		@Override
		public String toString() {
			return describe("ibv_qp", this);
		}

	}

	/**
	 * {@code struct ibv_counters *}; returned by a provider op, so built from its
	 * pointer.
	 */
	public static final class IbvCounters extends PointerType {

		/** Create a null handle (JNA needs it). */
		public IbvCounters() {
		}

		IbvCounters(Pointer pointer) {
			super(pointer);
		}

		@Override
		public String toString() {
			return describe("ibv_counters", this);
		}

	}

	/**
	 * {@code struct ibv_flow *}; returned by a provider op, so built from its pointer.
	 */
	public static final class IbvFlow extends PointerType {

		/** Create a null handle (JNA needs it). */
		public IbvFlow() {
		}

		IbvFlow(Pointer pointer) {
			super(pointer);
		}

		@Override
		public String toString() {
			return describe("ibv_flow", this);
		}

	}

}
