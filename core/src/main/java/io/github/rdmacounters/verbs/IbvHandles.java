package io.github.rdmacounters.verbs;

import com.sun.jna.Pointer;
import com.sun.jna.PointerType;

/**
 * Typed opaque handles of libibverbs objects; {@code toString()} never shows the address.
 * Internal; not part of the API (public because JNA instantiates them).
 *
 * @since 0.1.0
 */
public final class IbvHandles {

	private IbvHandles() {
	}

	static String describe(String type, PointerType handle) {
		return "struct " + type + ((handle.getPointer() != null) ? " *" : " * (null)");
	}

	/** {@code struct ibv_device *}. */
	public static final class IbvDevice extends PointerType {

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

		public IbvContext() {
		}

		@Override
		public String toString() {
			return describe("ibv_context", this);
		}

	}

	/** {@code struct ibv_pd *}. */
	public static final class IbvPd extends PointerType {

		public IbvPd() {
		}

		@Override
		public String toString() {
			return describe("ibv_pd", this);
		}

	}

	/** {@code struct ibv_cq *}. */
	public static final class IbvCq extends PointerType {

		public IbvCq() {
		}

		@Override
		public String toString() {
			return describe("ibv_cq", this);
		}

	}

	/** {@code struct ibv_qp *}. */
	public static final class IbvQp extends PointerType {

		public IbvQp() {
		}

		@Override
		public String toString() {
			return describe("ibv_qp", this);
		}

	}

	/** {@code struct ibv_counters *}, returned by a provider op. */
	public static final class IbvCounters extends PointerType {

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

	/** {@code struct ibv_flow *}, returned by a provider op. */
	public static final class IbvFlow extends PointerType {

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
