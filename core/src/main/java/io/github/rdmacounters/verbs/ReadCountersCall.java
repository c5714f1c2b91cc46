package io.github.rdmacounters.verbs;

import com.sun.jna.Function;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;
import org.jspecify.annotations.Nullable;

/**
 * A prepared call of a provider's {@code read_counters} op,
 * {@code int (*)(struct ibv_counters *, uint64_t *, uint32_t, uint32_t)}, through the
 * libffi entry points JNA exposes ({@link Native#ffi_prep_cif} and
 * {@link Native#ffi_call}).
 * <p>
 * {@link Function#invokeInt(Object[])} converts and classifies every argument object and
 * prepares a call interface on each call; the arguments of a read never change, so this
 * class prepares the call interface once per process and the argument block once per
 * counters handle. A read is then one JNI call with four {@code long}s and no allocation.
 * Only x86-64 Linux is supported (there {@code FFI_DEFAULT_ABI} is {@code FFI_UNIX64}, 2,
 * in every libffi release); elsewhere {@link #create} returns {@code null} and the caller
 * uses {@link Function#invokeInt(Object[])}. Not thread-safe: callers serialise calls.
 *
 * @author rdma-counters
 */
final class ReadCountersCall {

	/** {@code FFI_UNIX64}, the default ABI of libffi on x86-64. */
	private static final int FFI_UNIX64 = 2;

	/** {@code FFI_TYPE_UINT32}. */
	private static final short FFI_TYPE_UINT32 = 9;

	/** {@code FFI_TYPE_SINT32}. */
	private static final short FFI_TYPE_SINT32 = 10;

	/** {@code FFI_TYPE_POINTER}. */
	private static final short FFI_TYPE_POINTER = 14;

	/**
	 * {@code sizeof(ffi_type)}:
	 * {@code size_t size; unsigned short alignment, type; ffi_type **elements}.
	 */
	private static final int FFI_TYPE_SIZE = 24;

	private static final int ARGS = 4;

	private static final int SLOT = 8;

	private final long function;

	private final long cif;

	private final Memory values;

	private final Memory pointers;

	private final Memory result;

	private ReadCountersCall(long function, long cif, Pointer counters, Pointer buffer) {
		this.function = function;
		this.cif = cif;
		this.values = new Memory(ARGS * SLOT);
		this.values.clear();
		this.values.setPointer(0, counters);
		this.values.setPointer(SLOT, buffer);
		this.pointers = new Memory(ARGS * Native.POINTER_SIZE);
		for (int i = 0; i < ARGS; i++) {
			this.pointers.setPointer((long) i * Native.POINTER_SIZE, this.values.share((long) i * SLOT));
		}
		this.result = new Memory(SLOT);
	}

	/**
	 * Prepare calls of a {@code read_counters} op for one handle.
	 * @param readCounters the op
	 * @param counters the {@code struct ibv_counters *}
	 * @param buffer the values buffer
	 * @return the call, or {@code null} where this platform is not supported
	 */
	static @Nullable ReadCountersCall create(Function readCounters, Pointer counters, Pointer buffer) {
		long cif = CallInterface.CIF;
		if (cif == 0) {
			return null;
		}
		return new ReadCountersCall(Pointer.nativeValue(readCounters), cif, counters, buffer);
	}

	/**
	 * Point the call at another values buffer.
	 * @param buffer the buffer
	 */
	void buffer(Pointer buffer) {
		this.values.setPointer(SLOT, buffer);
	}

	/**
	 * Call {@code read_counters(counters, buffer, count, flags)}.
	 * @param count the number of values
	 * @param flags the flags
	 * @return the op's return value: 0 or an errno value
	 */
	int invoke(int count, int flags) {
		this.values.setInt(2 * SLOT, count);
		this.values.setInt(3 * SLOT, flags);
		Native.ffi_call(this.cif, this.function, Pointer.nativeValue(this.result), Pointer.nativeValue(this.pointers));
		return (int) this.result.getLong(0);
	}

	/**
	 * The call interface of {@code int (void *, void *, uint32_t, uint32_t)}, prepared
	 * once.
	 */
	private static final class CallInterface {

		/** The type descriptors and argument types the cif points to; never freed. */
		private static final Memory TYPES = new Memory(3 * FFI_TYPE_SIZE + ARGS * Native.POINTER_SIZE);

		/** The {@code ffi_cif *}, or 0 where unsupported. */
		static final long CIF = prepare();

		private static long prepare() {
			if (!Platform.isLinux() || !Platform.is64Bit() || !"x86-64".equals(Platform.ARCH)) {
				return 0;
			}
			Memory types = TYPES;
			types.clear();
			Pointer pointerType = type(types, 0, Native.POINTER_SIZE, FFI_TYPE_POINTER);
			Pointer uint32Type = type(types, FFI_TYPE_SIZE, Integer.BYTES, FFI_TYPE_UINT32);
			Pointer sint32Type = type(types, 2 * FFI_TYPE_SIZE, Integer.BYTES, FFI_TYPE_SINT32);
			long argTypes = 3 * FFI_TYPE_SIZE;
			Pointer[] arguments = { pointerType, pointerType, uint32Type, uint32Type };
			for (int i = 0; i < ARGS; i++) {
				types.setPointer(argTypes + (long) i * Native.POINTER_SIZE, arguments[i]);
			}
			try {
				return Native.ffi_prep_cif(FFI_UNIX64, ARGS, Pointer.nativeValue(sint32Type),
						Pointer.nativeValue(types) + argTypes);
			}
			catch (Error ex) {
				// JNA reports an ffi_prep_cif failure as java.lang.Error; fall back to
				// Function
				return 0;
			}
		}

		private static Pointer type(Memory types, long offset, int size, short type) {
			types.setLong(offset, size);
			types.setShort(offset + 8, (short) size);
			types.setShort(offset + 10, type);
			types.setPointer(offset + 16, null);
			return types.share(offset);
		}

	}

}
