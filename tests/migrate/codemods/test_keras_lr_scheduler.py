"""KerasTensorSchedules: LearningRateScheduler's schedule may return a tensor, as in Keras 2."""

from tests.migrate.codemods.support import assert_codemod, assert_unchanged

NAME = "KerasTensorSchedules"


def test_every_schedule_given_to_the_scheduler_goes_through_the_helper():
    """training-data-analyst keras_104_flowers_gputputpupod_tf2.2 (`@tf.function` lr_fn) and the
    xception notebook (a lambda); by position, by keyword, through a from-import; once only."""
    assert_codemod(NAME, """
        import tensorflow as tf
        from tensorflow.keras.callbacks import LearningRateScheduler

        lr_callback = tf.keras.callbacks.LearningRateScheduler(lr_fn)
        cb = tf.keras.callbacks.LearningRateScheduler(lambda epoch: lrfn(epoch), verbose=True)
        cb2 = LearningRateScheduler(schedule=lrfn, verbose=1)
        """, """
        import tensorflow as tf
        from tensorflow.keras.callbacks import LearningRateScheduler
        import estimator_bridge.compat.keras_methods

        lr_callback = tf.keras.callbacks.LearningRateScheduler(estimator_bridge.compat.keras_methods.legacy_lr_schedule(lr_fn))
        cb = tf.keras.callbacks.LearningRateScheduler(estimator_bridge.compat.keras_methods.legacy_lr_schedule(lambda epoch: lrfn(epoch)), verbose=True)
        cb2 = LearningRateScheduler(schedule=estimator_bridge.compat.keras_methods.legacy_lr_schedule(lrfn), verbose=1)
        """)


def test_other_schedulers_are_left():
    assert_unchanged(NAME, """
        import tensorflow as tf

        cb = LearningRateScheduler(lr_fn)
        opt = tf.keras.optimizers.schedules.ExponentialDecay(0.1, 100, 0.9)
        """)


def test_the_learning_rate_read_from_a_history_takes_keras_3s_key():
    """LearningRateScheduler / ReduceLROnPlateau logged `lr` (Keras 1.15-2.15), Keras 3 logs
    `learning_rate`: `history.history['lr']` raised KeyError. Other dicts' 'lr' keys are left, and
    nothing is renamed in a file without those callbacks."""
    assert_codemod(NAME, """
        import tensorflow as tf

        cb = tf.keras.callbacks.ReduceLROnPlateau(monitor='loss')
        print(history.history['lr'], history.history["loss"])
        has_lr = 'lr' in self.history.history
        d = {}; d['lr'] = 1
        """, """
        import tensorflow as tf

        cb = tf.keras.callbacks.ReduceLROnPlateau(monitor='loss')
        print(history.history['learning_rate'], history.history["loss"])
        has_lr = 'learning_rate' in self.history.history
        d = {}; d['lr'] = 1
        """)
    assert_unchanged(NAME, """
        import tensorflow as tf

        cb = tf.keras.callbacks.EarlyStopping(monitor='loss')
        print(history.history['lr'])
        """)


def test_the_learning_rate_key_in_a_compound_statements_header_is_renamed_too():
    """`if 'lr' in history.history:` (a learning-rate plot guarded by the key) stayed False on
    Keras 3 and silently skipped its block; `while`, `elif` and a `for` over the rates likewise."""
    assert_codemod(NAME, """
        import tensorflow as tf

        cb = tf.keras.callbacks.LearningRateScheduler(lambda epoch: 0.1)
        if 'lr' in history.history:
            plt.plot(history.history['lr'])
        elif "lr" not in h.history:
            pass
        while 'lr' in history.history and n < 3:
            n += 1
        for rate in history.history['lr']:
            print(rate)
        if params['lr'] > 0:
            pass
        """, """
        import tensorflow as tf
        import estimator_bridge.compat.keras_methods

        cb = tf.keras.callbacks.LearningRateScheduler(estimator_bridge.compat.keras_methods.legacy_lr_schedule(lambda epoch: 0.1))
        if 'learning_rate' in history.history:
            plt.plot(history.history['learning_rate'])
        elif "learning_rate" not in h.history:
            pass
        while 'learning_rate' in history.history and n < 3:
            n += 1
        for rate in history.history['learning_rate']:
            print(rate)
        if params['lr'] > 0:
            pass
        """)
